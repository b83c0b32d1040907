#!/usr/bin/env bash
# Makes, without Docker Hub, the base images that deploy/Dockerfile and deploy/compose.yaml name:
#   debian:12, debian:12-slim, debian:13   debootstrap --variant=minbase from a Debian mirror
#   redis:7, nginx:1.25                    stand-ins built from Debian 12's redis-server (7.0) and
#                                          nginx (1.22), behaving like the official images in what
#                                          compose.yaml uses (see below)
# For machines that reach a Debian mirror but no registry of images (like the development
# machines). Where Docker Hub is reachable, do not run this: the real images are better.
# Needs root, debootstrap and a running Docker engine. Usage:
#   bash deploy/docker-local-images.sh [MIRROR]      (default: http://deb.debian.org/debian)
# Certificates added locally on this host (/usr/local/share/ca-certificates/*.crt, e.g. of a
# TLS-inspecting proxy in front of the npm registry) are copied into the Debian images and named in
# NODE_EXTRA_CA_CERTS, so that `npm ci` in the build trusts the same registry the host does.
set -euo pipefail
MIRROR="${1:-http://deb.debian.org/debian}"
SECURITY="${MIRROR%/debian}/debian-security"
DOCKER="${DOCKER:-docker}"
WORK="$(mktemp -d /tmp/xq-local-images.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

base_image() {  # SUITE TAG...
  local suite=$1; shift
  local root="$WORK/$suite"
  echo "local-images: debootstrap $suite" >&2
  debootstrap --variant=minbase "$suite" "$root" "$MIRROR" >"$WORK/$suite.log" 2>&1 \
    || { tail -20 "$WORK/$suite.log" >&2; return 1; }
  rm -f "$root/etc/apt/sources.list"
  cat >"$root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $suite $suite-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SECURITY
Suites: $suite-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  local change=(-c 'CMD ["bash"]')
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    # Picked up by update-ca-certificates when a build installs ca-certificates; node reads the
    # concatenation at once.
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    cat /usr/local/share/ca-certificates/*.crt >"$root/usr/local/share/local-ca.pem"
    change+=(-c 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/local-ca.pem')
  fi
  tar -C "$root" -c . | "$DOCKER" import "${change[@]}" - "$1" >/dev/null
  local t
  for t in "${@:2}"; do "$DOCKER" tag "$1" "$t"; done
  rm -rf "$root"
}

base_image bookworm debian:12 debian:12-slim
base_image trixie debian:13

# redis:7 stand-in: like the official image, redis-server runs in /data (the AOF volume) and gets
# --protected-mode no (no config file, so Redis would otherwise refuse the other containers).
mkdir -p "$WORK/redis"
cat >"$WORK/redis/entrypoint.sh" <<'EOF'
#!/bin/sh
if [ "$1" = redis-server ]; then shift; set -- redis-server --protected-mode no "$@"; fi
exec "$@"
EOF
chmod 755 "$WORK/redis/entrypoint.sh"
cat >"$WORK/redis/Dockerfile" <<'EOF'
FROM debian:12-slim
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server \
    && rm -rf /var/lib/apt/lists/* && mkdir -p /data && chown redis:redis /data
COPY entrypoint.sh /usr/local/bin/docker-entrypoint.sh
USER redis
WORKDIR /data
EXPOSE 6379
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["redis-server"]
EOF
echo "local-images: redis:7 (Debian's redis-server)" >&2
"$DOCKER" build -q -t redis:7 "$WORK/redis" >/dev/null

# nginx:1.25 stand-in: like the official image, the server blocks come from /etc/nginx/conf.d/
# (Debian's default site is removed), logs go to the container's output, nginx in the foreground.
mkdir -p "$WORK/nginx"
cat >"$WORK/nginx/Dockerfile" <<'EOF'
FROM debian:12-slim
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/* /etc/nginx/sites-enabled/default \
    && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
EOF
echo "local-images: nginx:1.25 (Debian's nginx)" >&2
"$DOCKER" build -q -t nginx:1.25 "$WORK/nginx" >/dev/null

"$DOCKER" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^(debian|redis|nginx):' >&2
