#!/usr/bin/env bash
# Takeover at scale: node a owns GAMES games (loadgen, every acceptor on node b), they play for
# PLAY seconds at one move per INTERVAL ms per game, then a is killed with SIGKILL; prints how long
# until node b holds them all (its /metrics xq_live_games). Loopback only; stops by itself.
# usage: clients/loadgen/bench-takeover.sh [GAMES=5000] [INTERVAL_MS=2000] [PLAY_S=12]
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=build/bin
G=${1:-5000}; IV=${2:-2000}; PLAY=${3:-12}
RP=${REDIS_PORT:-16479}; PA=${PORT_A:-18180}; PB=${PORT_B:-18181}
DIR=$(mktemp -d /tmp/xq-takeover-XXXXXX)
live() { curl -s --max-time 1 "127.0.0.1:$1/metrics" | awk '/^xq_live_games /{print $2}'; }
redis-server --port "$RP" --bind 127.0.0.1 --dir "$DIR" --save '' --appendonly yes --appendfsync everysec \
  --auto-aof-rewrite-min-size 1gb >"$DIR/redis.log" 2>&1 &
R=$!; sleep 0.5
for n in a b; do
  port=$PA; [ $n = b ] && port=$PB
  $BIN/gameserver --listen "127.0.0.1:$port" --redis "redis://127.0.0.1:$RP/0" --secret 0123456789abcdef0123 \
    --admin-token x --node-id $n --first-move-ms 0 >"$DIR/$n.log" 2>&1 &  # (setup outlasts 30 s: no abort)
  eval "PID_$n=\$!"
done
sleep 1
$BIN/loadgen --port "$PA" --second-port "$PB" --server-pid "$PID_a" --redis-pid $R --games "$G" --setup-mode handoff \
  --move-interval-ms "$IV" --warmup-s 5 --duration-s $((PLAY + 15)) --ramp-timeout-s 240 >"$DIR/loadgen.txt" 2>&1 &
LG=$!
for _ in $(seq 1 1200); do [ "$(live "$PA")" -ge "$G" ] 2>/dev/null && break; sleep 0.2; done
sleep "$PLAY"
echo "node a holds $(live "$PA") games, $(redis-cli -p "$RP" eval "local n=0 for _,k in ipairs(redis.call('keys','{xq}:game:*:events')) do n=n+redis.call('llen',k) end return n" 0) events in Redis"
t0=$(date +%s.%N); kill -9 "$PID_a"
until [ "$(live "$PB")" -ge "$G" ] 2>/dev/null; do sleep 0.05; done
t1=$(date +%s.%N)
echo "node b holds $(live "$PB") games $(echo "$t1 - $t0" | bc) s after the kill (--lease-ms 5000, --tick-ms 1000)"
echo "node b: $(grep -c 'on request' "$DIR/b.log") taken over on a client's request; by its tick:" $(grep -o 'took over [0-9]* games of dead nodes' "$DIR/b.log" | awk '{print $3}')
grep 'tick took' "$DIR/b.log" | head -3
kill $LG 2>/dev/null; kill "$PID_b"; wait "$PID_b" 2>/dev/null; kill $R; wait 2>/dev/null
rm -rf "$DIR"
