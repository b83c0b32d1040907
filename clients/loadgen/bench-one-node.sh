#!/bin/bash
# One game server (--threads 2) on a fresh Redis with AOF (appendfsync everysec), and loadgen
# against it; the figures of docs/benchmarks.md called "run.sh" come from this. Loopback only,
# bounded by loadgen's own --duration-s; everything it starts is stopped at the end.
# Usage: [GS_THREADS=n] [GS_ARGS="--finished-linger-ms 10000"] clients/loadgen/bench-one-node.sh LOADGEN_ARGS...
#   e.g. clients/loadgen/bench-one-node.sh --games 2400 --setup-mode handoff --move-interval-ms 100 --warmup-s 5 --duration-s 15
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${BIN:-build/bin}
DIR=$(mktemp -d)
trap 'kill $GS $RS 2>/dev/null; wait 2>/dev/null; rm -rf "$DIR"' EXIT
# Redis persistence as the deploy recipes set it (compose.yaml, k8s/redis.yaml): AOF, fsync every
# second, and no AOF rewrite before 1 GB. With Redis's default (a rewrite at 64 MB, i.e. after
# ~20 s at 10,000 moves/s) the rewrite's fork stalls every append for ~200 ms on a slow VM; set
# REDIS_ARGS to measure other settings.
# shellcheck disable=SC2086
redis-server --port 16479 --bind 127.0.0.1 --save '' ${REDIS_ARGS:---appendonly yes --appendfsync everysec --auto-aof-rewrite-min-size 1gb} \
  --dir "$DIR" --daemonize no > "$DIR/redis.log" 2>&1 & RS=$!
sleep 0.5
# --first-move-ms 0: games set up long before the measured phase (a 10,000-game handoff setup takes
# ~50 s) would otherwise be aborted for want of a first move in 30 s, as players' games are.
"$B/gameserver" --listen 127.0.0.1:18180 --redis redis://127.0.0.1:16479/0 --secret 0123456789abcdef0123456789abcdef \
  --admin-token x --threads "${GS_THREADS:-2}" --first-move-ms 0 ${GS_ARGS:-} > "$DIR/gameserver.log" 2>&1 & GS=$!
sleep 1
"$B/loadgen" --port 18180 --server-pid "$GS" --redis-pid "$RS" "$@"
