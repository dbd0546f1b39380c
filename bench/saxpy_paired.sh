#!/bin/bash
# Paired saxpy ratios against the fused loop, on calm rounds only.
#
# usage: bench/saxpy_paired.sh ROUNDS ITEMS RFGRAPH [RFGRAPH ...]
#   env: ARGS     extra `rfgraph bench saxpy` arguments for every run, fused
#                 and flowgraph alike (e.g. "--fill", "--blocks 12")
#        FLOOR    fused block-items/s both neighbours of a round must reach
#                 for the round to count (default: CALM times the fastest
#                 of WARMUP fused runs)
#        CALM     fraction of that fastest run (default 0.95). The floor
#                 is set once: warmed up in a noisy minute it lets noisy
#                 rounds count, so give FLOOR when comparing sessions (the
#                 fused loop on this 2-core VM in calm minutes: 2.2–2.4e10,
#                 1.10–1.15e10 with --fill)
#        WARMUP   fused runs that set the floor (default 9)
#        MAXIT    give up after this many rounds (default 200)
#
# A round runs `rfgraph bench saxpy --fused`, then `--scheduler chain` with
# each given binary, then `--fused` again; its ratio is the chain rate over
# the mean of the two fused rates. Rounds where either fused run falls below
# FLOOR are dropped: on a shared VM, slow phases (a neighbour on the sibling
# hardware thread) hit the L1-bound chain far harder than the loop, and
# their ratios say nothing about the runtime. Prints, per binary, the median
# ratio and its quartiles over kept rounds.
set -euo pipefail
ROUNDS=$1; ITEMS=$2; shift 2
ARGS=${ARGS:-}; CALM=${CALM:-0.95}; WARMUP=${WARMUP:-9}; MAXIT=${MAXIT:-200}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The run-phase rate one run reports (block items over `run_seconds`: the
# steady state this comparison is about, without the graph's start-up,
# which `seconds` includes); stops the script, saying which run, if it
# fails or reports none.
rate() {
  local r
  # shellcheck disable=SC2086
  r=$("$@" --items "$ITEMS" $ARGS 2>"$out/stderr" | head -1 | awk '
    { rate = ""; secs = ""; run = "" }
    match($0, /"block_items_per_s":[0-9.e+]*/) { rate = substr($0, RSTART + 20, RLENGTH - 20) }
    match($0, /"seconds":[0-9.e+-]*/) { secs = substr($0, RSTART + 10, RLENGTH - 10) }
    match($0, /"run_seconds":[0-9.e+-]*/) { run = substr($0, RSTART + 14, RLENGTH - 14) }
    END { if (rate != "") { if (run != "" && run + 0 > 0) print rate * secs / run; else print rate } }') || true
  if [ -z "$r" ]; then
    echo "no rate from: $* --items $ITEMS $ARGS" >&2
    tail -3 "$out/stderr" >&2
    exit 1
  fi
  echo "$r"
}
if [ -z "${FLOOR:-}" ]; then
  [ "$WARMUP" -ge 1 ] || { echo "WARMUP must be at least 1 (or set FLOOR)" >&2; exit 1; }
  best=0
  for _ in $(seq "$WARMUP"); do
    r=$(rate "$1" bench saxpy --fused)
    best=$(awk -v a="$best" -v b="$r" 'BEGIN { print (b + 0 > a + 0 ? b : a) }')
  done
  FLOOR=$(awk -v b="$best" -v c="$CALM" 'BEGIN { printf "%.4e", b * c }')
fi
echo "floor: fused at or above $FLOOR block-items/s"
kept=0; it=0
prev=$(rate "$1" bench saxpy --fused)
while [ "$kept" -lt "$ROUNDS" ] && [ "$it" -lt "$MAXIT" ]; do
  it=$((it + 1))
  chain=()
  for bin in "$@"; do
    chain+=("$(rate "$bin" bench saxpy --scheduler chain)")
  done
  next=$(rate "$1" bench saxpy --fused)
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
    echo "$bin: no calm round in $it (lower FLOOR or CALM?)"
  fi
  i=$((i + 1))
done
