#!/usr/bin/env bash
# Sets up everything (packages, build) and runs the whole test suite: the GoogleTest suites through
# CTest (they start their own redis-server on free ports) and the browser tests of the web client.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/setup.sh

# A shared redis-server for suites that want one (REDIS_URL); fixtures that need isolation start
# their own on a free port.
REDIS_DIR="$(mktemp -d)"
REDIS_PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --save '' --appendonly no --daemonize yes \
  --pidfile "$REDIS_DIR/redis.pid" >/dev/null
trap 'kill "$(cat "$REDIS_DIR/redis.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$REDIS_DIR"' EXIT
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"

ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2 --timeout 600

# A short libFuzzer run of the FEN, move and protocol-envelope targets (clang; docs/fuzzing.md).
bash tests/fuzz/run-short.sh

if [ -f clients/web/package.json ] && grep -q '"test:e2e"' clients/web/package.json; then
  (cd clients/web && XQ_E2E_STRICT=1 npm run test:e2e)  # strict: a skipped browser test fails the run
fi
