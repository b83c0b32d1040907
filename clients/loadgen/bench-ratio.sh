#!/bin/bash
# The scale issue's ratio in one command: the bare Beast echo server's messages/s, then the game
# server's moves/s at saturation, each ROUNDS times back to back (the host's speed drifts within
# minutes, so only figures taken together compare), and moves/s as a share of the echo's.
# Between them the bare relay (echo_server --relay true, loadgen --echo --echo-relay): a message
# back to its sender and to a paired connection that answers, the wire of a move without the game
# server, so the ratio splits into what the wire's shape allows and what the server's work takes.
# Loopback only; everything it starts is stopped at the end.
# Usage: [ROUNDS=2] [CONNECTIONS=2000] [GAMES=2400] clients/loadgen/bench-ratio.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BIN:-build/bin}
ROUNDS=${ROUNDS:-2}
ES=""
trap '[ -n "$ES" ] && kill $ES 2>/dev/null; wait 2>/dev/null || true' EXIT
for round in $(seq 1 "$ROUNDS"); do
  "$B/echo_server" --listen 127.0.0.1:19090 --threads 2 --max-seconds 120 > /dev/null & ES=$!
  sleep 0.5
  echo_rate=$("$B/loadgen" --echo --port 19090 --server-pid "$ES" --connections "${CONNECTIONS:-2000}" \
    --warmup-s 3 --duration-s 8 | awk '/^echo messages\/s/ {print $3}')
  kill $ES; wait $ES 2>/dev/null || true; ES=""
  "$B/echo_server" --listen 127.0.0.1:19090 --threads 2 --max-seconds 120 --relay true > /dev/null & ES=$!
  sleep 0.5
  relay_rate=$("$B/loadgen" --echo --echo-relay --port 19090 --server-pid "$ES" --connections "${CONNECTIONS:-2000}" \
    --warmup-s 3 --duration-s 8 | awk '/^relay messages\/s/ {print $3}')
  kill $ES; wait $ES 2>/dev/null || true; ES=""
  game_rate=$(BIN="$B" clients/loadgen/bench-one-node.sh --games "${GAMES:-2400}" --setup-mode handoff \
    --move-interval-ms 100 --warmup-s 5 --duration-s 12 | awk '/^moves\/s/ {print $2}')
  pct() { echo $(( $2 > 0 ? 100 * $1 / $2 : 0 )); }
  echo "round $round: echo $echo_rate msgs/s, relay $relay_rate msgs/s (${CONNECTIONS:-2000} connections)," \
    "game $game_rate moves/s (${GAMES:-2400} games) -> game/echo $(pct "$game_rate" "$echo_rate") %" \
    "(relay/echo $(pct "$relay_rate" "$echo_rate") %, game/relay $(pct "$game_rate" "$relay_rate") %)"
done
