#!/bin/bash
# Compares two builds of `xq` on repetition loops: verdict, per-move labels and time of each.
# A loop is "FEN|moves" (tests/tools/data/random_loops.txt: 600 loops from random positions;
# random_jieqi_loops.txt: 2,500 Jieqi loops with 6-15 face-down pieces a side, for VARIANT=jieqi);
# its moves are played twice, so the position repeats. Prints one line per loop that differs and,
# at the end, the count of differences and each build's total and slowest time.
# Usage: [VARIANT=jieqi] [RULES=axf|computer] tests/tools/judge_compare.sh OLD_XQ NEW_XQ [LOOPS_FILE...]
set -euo pipefail
A=$1 B=$2
shift 2
VARIANT=${VARIANT:-xiangqi}
RULES=${RULES:-cxa}
[ $# -gt 0 ] || set -- "$(dirname "$0")/data/$([ "$VARIANT" = jieqi ] && echo random_jieqi_loops.txt || echo random_loops.txt)"
now() { date +%s.%N; }
cat "$@" | while IFS='|' read -r fen moves; do
  [ -z "$fen" ] && continue
  t0=$(now); ra=$(timeout 60 "$A" judge --variant "$VARIANT" --rules "$RULES" --labels --fen "$fen" --moves "$moves $moves" 2>&1 || true)
  t1=$(now); rb=$(timeout 60 "$B" judge --variant "$VARIANT" --rules "$RULES" --labels --fen "$fen" --moves "$moves $moves" 2>&1 || true)
  t2=$(now)
  same=1; [ "$ra" = "$rb" ] || same=0
  echo "$same $(echo "$t1 - $t0" | bc) $(echo "$t2 - $t1" | bc) $fen|$moves|$(echo "$ra" | tail -1)|$(echo "$rb" | tail -1)"
done | awk '{ if ($1 == 0) { d++; print "DIFF " substr($0, index($0, $4)) }
             a += $2; b += $3; if ($2 > ma) ma = $2; if ($3 > mb) mb = $3; n++ }
           END { printf "%d loops, %d differ; old %.1f s (slowest %.2f s), new %.1f s (slowest %.2f s)\n", n, d, a, ma, b, mb }'
