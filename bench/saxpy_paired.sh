#!/bin/bash
# Paired saxpy ratios against the fused loop, on calm rounds only.
#
# usage: bench/saxpy_paired.sh ROUNDS ITEMS RFGRAPH [RFGRAPH ...]
#   env: FLOOR    fused block-items/s both neighbours of a round must reach
#                 for the round to count (default 1.10e10: this 2-core VM's
#                 fused loop in calm minutes; set it for your machine)
#        MAXIT    give up after this many rounds (default 200)
#        EXTRA    extra arguments for the chain runs (e.g. "--blocks 12")
#
# A round runs `rfgraph bench saxpy --fused`, then `--scheduler chain` with
# each given binary, then `--fused` again; its ratio is the chain rate over
# the mean of the two fused rates. Rounds where either fused run falls below
# FLOOR are dropped: on a shared VM, slow phases hit the L1-bound chain far
# harder than the loop, and their ratios say nothing about the runtime.
# Prints, per binary, the median ratio and its quartiles over kept rounds.
set -euo pipefail
ROUNDS=$1; ITEMS=$2; shift 2
FLOOR=${FLOOR:-1.10e10}; MAXIT=${MAXIT:-200}; EXTRA=${EXTRA:-}
rate() { "$@" 2>/dev/null | grep -o '"block_items_per_s":[0-9.e+]*' | head -1 | cut -d: -f2; }
out=$(mktemp -d)
kept=0; it=0
prev=$(rate "$1" bench saxpy --fused --items "$ITEMS")
while [ "$kept" -lt "$ROUNDS" ] && [ "$it" -lt "$MAXIT" ]; do
  it=$((it + 1))
  chain=()
  for bin in "$@"; do
    # shellcheck disable=SC2086
    chain+=("$(rate "$bin" bench saxpy --scheduler chain --items "$ITEMS" $EXTRA)")
  done
  next=$(rate "$1" bench saxpy --fused --items "$ITEMS")
  if awk -v a="$prev" -v b="$next" -v f="$FLOOR" 'BEGIN { exit !(a >= f && b >= f) }'; then
    kept=$((kept + 1))
    for i in "${!chain[@]}"; do
      awk -v c="${chain[$i]}" -v a="$prev" -v b="$next" 'BEGIN { printf "%.4f\n", c / ((a + b) / 2) }' >> "$out/$i"
    done
  fi
  prev=$next
done
i=0
for bin in "$@"; do
  if [ -s "$out/$i" ]; then
    sort -n "$out/$i" | awk -v bin="$bin" -v it="$it" '{ r[NR] = $1 } END {
      printf "%s: median %.3f (q1 %.3f, q3 %.3f) over %d calm rounds of %d\n",
        bin, r[int((NR + 1) / 2)], r[int((NR + 3) / 4)], r[int((3 * NR + 1) / 4)], NR, it }'
  else
    echo "$bin: no calm round in $it (lower FLOOR?)"
  fi
  i=$((i + 1))
done
rm -rf "$out"
