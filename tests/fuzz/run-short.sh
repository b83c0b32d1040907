#!/usr/bin/env bash
# Short fuzzing run for the test suite: configures and builds the clang/libFuzzer build dir
# (build-fuzz, separate from the normal build), then runs every fuzz target for
# FUZZ_SECONDS (default 20) seconds starting from its committed seed corpus. Fails on any crash,
# sanitizer report, leak, timeout or out-of-memory. Crash inputs are kept in build-fuzz/fuzz-out/.
# Environment: FUZZ_BUILD_DIR (build-fuzz), FUZZ_SECONDS (20), FUZZ_JOBS (build parallelism, 2),
# CLANGXX (clang++), FUZZ_TARGETS (space-separated subset).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${FUZZ_BUILD_DIR:-build-fuzz}"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-20}"
CXX_BIN="${CLANGXX:-clang++}"
TARGETS="${FUZZ_TARGETS:-fuzz_fen fuzz_moves fuzz_session}"

if ! command -v "$CXX_BIN" >/dev/null; then
  echo "run-short.sh: $CXX_BIN not found (install clang and libclang-rt-dev)" >&2
  exit 1
fi

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$CXX_BIN" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXQ_FUZZ=ON
else
  cmake -S . -B "$BUILD" -DXQ_FUZZ=ON >/dev/null
fi
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "${FUZZ_JOBS:-2}" --target $TARGETS

OUT="$BUILD/fuzz-out"
mkdir -p "$OUT"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
status=0
for t in $TARGETS; do
  corpus_work="$OUT/$t-corpus"  # grows during the run; the committed seeds stay untouched
  mkdir -p "$corpus_work" "$OUT/$t-artifacts"
  echo "== $t: ${SECONDS_PER_TARGET}s"
  dict=(); [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  if ! "$BUILD/bin/$t" "${dict[@]}" -max_total_time="$SECONDS_PER_TARGET" -timeout=60 -rss_limit_mb=2048 -max_len=4096 \
      -print_final_stats=1 -artifact_prefix="$OUT/$t-artifacts/" \
      "$corpus_work" "tests/fuzz/corpus/$t" >"$OUT/$t.log" 2>&1; then
    echo "!! $t failed; log: $OUT/$t.log, inputs: $OUT/$t-artifacts/" >&2
    tail -n 40 "$OUT/$t.log" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$OUT/$t.log" | tr '\n' ' '
    echo
  fi
done
exit $status
