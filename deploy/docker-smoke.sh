#!/usr/bin/env bash
# Smoke test of the Docker deployment on a machine with a Docker engine and compose (v2 plugin
# `docker compose` or v1 `docker-compose`): builds the images of deploy/compose.yaml, starts the
# stack (Redis with AOF, two game servers, the matchmaker, nginx), and through the proxy checks
# /healthz, the web page, and games played by build/bin/loadgen (on both game servers); that the
# proxy starts while a game server is stopped, and reaches both game servers after their containers
# are recreated without restarting it; optionally a game in headless Chromium while its owner's
# container is killed; then removes the stack.
#   bash deploy/docker-smoke.sh
# Environment:
#   XQ_SMOKE_PORT      host port of the proxy (default 18080)
#   XQ_SMOKE_FAILOVER  1: also run clients/web/e2e/failover.mjs (needs node, clients/web/node_modules
#                      and Debian's chromium); auto (default): if those are there; 0: no
#   XQ_SMOKE_KEEP      1: leave the stack running (remove it with the `down` command printed)
#   LOADGEN            the load generator (default build/bin/loadgen; cmake --build build --target loadgen)
# Without Docker Hub, deploy/docker-local-images.sh makes the base images first.
# Prints "N passed, N failed" at the end; exit code 0 only if every check passed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PORT="${XQ_SMOKE_PORT:-18080}"
LOADGEN="${LOADGEN:-$ROOT/build/bin/loadgen}"
PROJECT=xq-smoke
if docker compose version >/dev/null 2>&1; then COMPOSE=(docker compose); else COMPOSE=(docker-compose); fi
DC=("${COMPOSE[@]}" -p "$PROJECT" -f deploy/compose.yaml)
export XQ_HTTP_PORT="$PORT"
export XQ_SECRET="${XQ_SECRET:-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}"
export XQ_ADMIN_TOKEN="${XQ_ADMIN_TOKEN:-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')}"
TMP="$(mktemp -d /tmp/xq-smoke.XXXXXX)"
passed=0 failed=0
ok() { echo "smoke: ok: $*"; passed=$((passed + 1)); }
bad() { echo "smoke: FAILED: $*"; failed=$((failed + 1)); }

finish() {
  local rc=$?
  if [ "$failed" -gt 0 ] || [ "$rc" -ne 0 ]; then
    echo "smoke: last log lines of each service:"
    "${DC[@]}" logs --tail 15 2>&1 | grep -v 'GET /healthz' | tail -80 || true
  fi
  if [ "${XQ_SMOKE_KEEP:-0}" = 1 ]; then
    echo "smoke: the stack is left running; remove it with: ${DC[*]} down -v"
  else
    "${DC[@]}" down -v >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
  if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
  echo "$passed passed, $failed failed"
  if [ "$failed" -eq 0 ]; then exit 0; else exit 1; fi
}
trap finish EXIT

[ -x "$LOADGEN" ] || { echo "smoke: no $LOADGEN (cmake --build build --target loadgen)"; exit 1; }
echo "smoke: ${COMPOSE[*]}, proxy on 127.0.0.1:$PORT"

t0=$(date +%s)
"${DC[@]}" build >"$TMP/build.log" 2>&1 || { tail -40 "$TMP/build.log"; bad "image build"; exit 1; }
build_s=$(( $(date +%s) - t0 ))
"${DC[@]}" up -d >"$TMP/up.log" 2>&1 || { cat "$TMP/up.log"; bad "compose up"; exit 1; }
image=$(docker inspect -f '{{.Image}}' "$("${DC[@]}" ps -q gameserver-1)")
size_mb=$(( $(docker image inspect -f '{{.Size}}' "$image") / 1000000 ))
ok "images built in ${build_s}s (game server image ${size_mb} MB), stack up"

# Waits up to $1 s for /healthz through the proxy to answer 200; sets waited (s).
healthz_within() {
  local t0
  t0=$(date +%s)
  until [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")" = 200 ]; do
    waited=$(( $(date +%s) - t0 ))
    [ "$waited" -lt "$1" ] || return 1
    sleep 1
  done
  waited=$(( $(date +%s) - t0 ))
}

# /healthz through the proxy, once both game servers are up.
healthz_within 90 || { bad "/healthz through the proxy did not answer 200 within 90 s"; exit 1; }
ok "/healthz through the proxy: 200 after ${waited}s"

page=$(curl -s -w '\n%{http_code}' "http://127.0.0.1:$PORT/")
script=$(grep -o 'src="\./assets/[^"]*\.js"' <<<"$page" | head -1 | sed 's/^src="\.\///; s/"$//')
if [ "${page##*$'\n'}" = 200 ] && grep -q 'id="app"' <<<"$page" && [ -n "$script" ] &&
   [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/$script")" = 200 ]; then
  ok "the web client's page and its script ($script) through the proxy"
else
  bad "the web client's page through the proxy"
fi

# 10 games through the proxy (nginx spreads the connections over both game servers); $1: warmup
# and $2: measured seconds, $3: what the check is called. Prints loadgen's report.
loadgen_check() {
  "$LOADGEN" --port "$PORT" --games 10 --move-interval-ms 200 --warmup-s "$1" --duration-s "$2" >"$TMP/loadgen.log" 2>&1 || true
  sed -n '/==== RESULT/,$p' "$TMP/loadgen.log"
  local res moves
  res=$(sed -n '/==== RESULT/,$p' "$TMP/loadgen.log")
  moves=$(awk '/^moves\/s/ {print $2}' <<<"$res")
  if grep -q '20 connected (20 players, 0 idle), 0 closed, 0 failed' <<<"$res" &&
     grep -q ' 0 setups failed' <<<"$res" && grep -q 'stalled moves .* 0, desync 0' <<<"$res" &&
     grep -q '^errors by code *none' <<<"$res" && [ "${moves:-0}" -gt 0 ]; then
    ok "$3: 10 games, $moves moves/s, no errors, stalls or desyncs"
  else
    bad "$3 (see its report above)"
  fi
}
loadgen_check 2 5 "loadgen through the proxy"
redis() { "${DC[@]}" exec -T redis redis-cli "$@"; }
spread=""
for n in $(redis SMEMBERS "{xq}:nodes:known" | tr -d '\r'); do spread+="$n:$(redis SCARD "{xq}:node:$n:games" | tr -d '\r') "; done
if [ "$(wc -w <<<"$spread")" -eq 2 ] && ! grep -q ':0 ' <<<"$spread"; then
  ok "games owned by both game servers ($spread)"
else
  bad "games are not spread over two game servers ($spread)"
fi

# The proxy does not depend on the game servers' containers (nginx.conf lists their fixed
# addresses from compose.yaml, so nginx resolves no name). It starts while one is stopped:
"${DC[@]}" stop gameserver-2 >/dev/null 2>&1
"${DC[@]}" restart proxy >/dev/null 2>&1
codes=""
if healthz_within 20; then
  for _ in 1 2 3 4 5 6 7 8 9 10; do codes+=$(curl -s -m 10 -o /dev/null -w '%{http_code} ' "http://127.0.0.1:$PORT/healthz"); done
fi
proxy=$("${DC[@]}" ps -q proxy)
if [ "$codes" = "$(printf '200 %.0s' 1 2 3 4 5 6 7 8 9 10)" ]; then
  ok "the proxy restarted while gameserver-2 was stopped: /healthz 200 10 of 10 through gameserver-1"
else
  bad "the proxy restarted while gameserver-2 was stopped: /healthz ${codes:-not 200 within 20 s}," \
      "proxy $(docker inspect -f '{{.State.Status}}, restarted {{.RestartCount}} times' "$proxy")"
fi
# and it reaches both game servers right after their containers are recreated (a new image),
# without being restarted itself (docker-compose 1.29 recreates their dependency Redis too).
proxy_started=$(docker inspect -f '{{.State.StartedAt}}' "$proxy")
"${DC[@]}" up -d --force-recreate gameserver-1 gameserver-2 >"$TMP/recreate.log" 2>&1 || { cat "$TMP/recreate.log"; bad "recreating the game servers"; }
if healthz_within 30; then
  ok "/healthz through the proxy: 200 ${waited}s after both game servers were recreated"
else
  bad "/healthz through the proxy did not answer 200 within 30 s of recreating the game servers"
fi
loadgen_check 1 3 "loadgen through the proxy after the game servers were recreated"
accepted=""
for s in gameserver-1 gameserver-2; do
  n=$(docker exec "$("${DC[@]}" ps -q "$s")" curl -s localhost:8080/metrics | awk '/^xq_connections_total / {print $2}')
  accepted+="$s:${n:-?} "
done
if [ "$(docker inspect -f '{{.State.StartedAt}}' "$proxy")" = "$proxy_started" ] && ! grep -qE ':(0|\?) ' <<<"$accepted"; then
  ok "the proxy, not restarted, sent WebSocket connections to both recreated game servers ($accepted)"
else
  bad "after recreating the game servers: proxy started $proxy_started, now" \
      "$(docker inspect -f '{{.State.StartedAt}}' "$proxy"); WebSocket connections accepted: $accepted"
fi

# Optional: a game in the browser while the node owning it is killed.
want="${XQ_SMOKE_FAILOVER:-auto}"
have_browser=0
if command -v node >/dev/null && [ -d clients/web/node_modules/playwright-core ] && [ -x "${XQ_CHROMIUM:-/usr/bin/chromium}" ]; then
  have_browser=1
fi
if [ "$want" = 1 ] || { [ "$want" = auto ] && [ "$have_browser" = 1 ]; }; then
  cat >"$TMP/kill-owner.sh" <<EOF
#!/bin/sh
# \$1: game id. Kills the container of the game's owner node (node id = container hostname-pid).
cd "$ROOT"
owner=\$(${DC[*]} exec -T redis redis-cli GET "{xq}:game:\$1:owner" | tr -d '\r')
c=\${owner%-*}
docker kill "\$c" >/dev/null && echo "owner \$owner: killed container \$(docker inspect -f '{{.Name}}' "\$c")"
EOF
  if (cd clients/web && node e2e/failover.mjs "http://127.0.0.1:$PORT" "sh $TMP/kill-owner.sh"); then
    ok "a game in the browser went on after its owner's container was killed"
  else
    bad "failover in the browser"
  fi
else
  echo "smoke: skipped the browser failover (XQ_SMOKE_FAILOVER=$want; node, clients/web/node_modules, chromium)"
fi
