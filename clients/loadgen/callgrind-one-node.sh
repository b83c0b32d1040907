#!/bin/bash
# Instructions per move, which the host's load does not change (docs/benchmarks.md "A move's
# instructions in the server, counted"): the game server under valgrind's callgrind with a light
# steady load, instrumentation on only during the measured window. Loopback only; everything it
# starts is stopped at the end. Prints the instructions, the moves in the window and their ratio.
# Usage: [GAMES=40] [IV=200] [OUT=/tmp/cg] clients/loadgen/callgrind-one-node.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BIN:-build/bin}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
trap 'kill $GS $RS 2>/dev/null; wait 2>/dev/null || true' EXIT
redis-server --port 16489 --bind 127.0.0.1 --save '' --appendonly yes --appendfsync everysec --dir "$OUT" \
  --daemonize no > "$OUT/redis.log" 2>&1 & RS=$!
sleep 0.5
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$OUT/cg.out" "$B/gameserver" --listen 127.0.0.1:18190 \
  --redis redis://127.0.0.1:16489/0 --secret 0123456789abcdef0123456789abcdef --admin-token x --threads 2 \
  --first-move-ms 0 > "$OUT/gameserver.log" 2>&1 & GS=$!
sleep 8
# Warm-up 25 s (game setups included), then 20 s counted.
( sleep 25; callgrind_control -i on $GS > /dev/null; sleep 20; callgrind_control -i off $GS > /dev/null ) & TOGGLE=$!
"$B/loadgen" --port 18190 --games "${GAMES:-40}" --setup-mode handoff --move-interval-ms "${IV:-200}" --warmup-s 25 \
  --duration-s 22 --server-metrics 0 > "$OUT/loadgen.txt" 2>&1
wait $TOGGLE
callgrind_control -d $GS > /dev/null
sleep 2
f=$(ls "$OUT"/cg.out.* | head -1)
total=$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",","",$1); print $1}')
# The moves of the window: the calls of RulesGame::play(iccs) from GameSession::move.
moves=$(callgrind_annotate --tree=caller "$f" 2>/dev/null | grep -E '<.*RulesGame::play\(std::__cxx11' | head -1 |
  sed -E 's/.*\(([0-9,]+)x\).*/\1/' | tr -d ,)
echo "instructions $total, moves $moves, per move $(( total / moves ))  (profile: callgrind_annotate $f)"
