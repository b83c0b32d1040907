#!/usr/bin/env bash
# Sets up everything, starts a local redis-server (data in ./var/redis), the matchmaker and the game
# server with the web client at http://localhost:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/setup.sh

mkdir -p var/redis
# A port of its own: installing redis-server on Debian also starts the packaged one on 6379 (AOF
# off, data elsewhere), which this would otherwise have used. REDIS_PORT points at another Redis.
REDIS_PORT="${REDIS_PORT:-6390}"
if ! redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$PWD/var/redis" --daemonize yes \
    --appendonly yes --appendfsync everysec --auto-aof-rewrite-min-size 1gb \
    --pidfile "$PWD/var/redis/redis.pid" >/dev/null
fi

SECRET_FILE=var/server-secret
[ -f "$SECRET_FILE" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$SECRET_FILE"
ADMIN_FILE=var/admin-token
[ -f "$ADMIN_FILE" ] || head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$ADMIN_FILE"
echo "admin token: $(cat "$ADMIN_FILE")  (also in $ADMIN_FILE)"
echo "web client:  http://localhost:${PORT:-8080}"

# The matchmaker (tournaments, quick pairing) runs beside the game server and stops with it.
./build/bin/matchmaker --redis "redis://127.0.0.1:$REDIS_PORT/0" &
MATCHMAKER_PID=$!
# So do the computer opponents (docs/bot.md): the accounts "xqbot" (as strong as a second a move
# allows), "xqbot-medium" (3 plies deep) and "xqbot-easy" (1 ply), each with a Xiangqi and a Jieqi
# seek always open. Their passwords are made once and kept in var/ (files, not the command line).
# They connect once the game server below listens (they retry until then).
ADMIN_HEADER=var/admin-header
(umask 077 && printf 'X-Admin-Token: %s\n' "$(cat "$ADMIN_FILE")" > "$ADMIN_HEADER")
BOT_PIDS=""
for bot in xqbot:0 xqbot-medium:3 xqbot-easy:1; do
  name=${bot%%:*} depth=${bot##*:}
  password_file=var/$name-password
  [ -f "$password_file" ] || (umask 077 && head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$password_file")
  id_file=var/$name-id
  rm -f "$id_file"
  # Niced: a search takes a core for up to a second a move; the server's moves come first.
  nice -n 10 ./build/bin/xqbot --server "ws://127.0.0.1:${PORT:-8080}/ws" --name "$name" --max-depth "$depth" \
    --password-file "$password_file" --user-id-file "$id_file" &
  BOT_PIDS="$BOT_PIDS $!"
  # Once the bot has signed in, the admin marks it as a computer player: players see it so. Only
  # the account the bot signed in as (its id in $id_file): a person who registered the name before
  # the bot first ran holds it, and must not be shown as the computer. The admin token goes in a
  # header file, not on curl's command line.
  (base="http://127.0.0.1:${PORT:-8080}/api/admin/accounts/$name"
  for _ in $(seq 120); do
    sleep 1
    [ -s "$id_file" ] || continue
    account=$(curl -fsS -H @"$ADMIN_HEADER" "$base" 2>/dev/null) || continue
    case "$account" in
      *"\"user_id\":\"$(cat "$id_file")\""*) ;;
      *) echo "run-local.sh: the account $name is not the bot's own: not marked as a computer player" >&2; exit 1 ;;
    esac
    curl -fsS -o /dev/null -X POST -H @"$ADMIN_HEADER" -d '{"bot":true}' "$base/bot" 2>/dev/null && exit 0
  done; echo "run-local.sh: could not mark $name as a computer player (did it sign in?)" >&2) &
  BOT_PIDS="$BOT_PIDS $!"
done
trap 'kill $MATCHMAKER_PID $BOT_PIDS 2>/dev/null || true' EXIT

# The secrets go through the environment: a command line is readable by every user of the host.
XQ_SECRET="$(cat "$SECRET_FILE")" XQ_ADMIN_TOKEN="$(cat "$ADMIN_FILE")" \
  ./build/bin/gameserver --listen "0.0.0.0:${PORT:-8080}" --redis "redis://127.0.0.1:$REDIS_PORT/0" \
  --static-dir clients/web/dist \
  --node-id local  # a fixed name: after a restart this node takes its own games back at once
