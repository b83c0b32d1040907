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
  clang libclang-rt-14-dev)
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

BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"

if [ -f clients/web/package.json ]; then
  (cd clients/web && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build)
fi
