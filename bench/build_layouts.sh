#!/bin/bash
# Builds the `rfgraph` binary of the working tree with three code layouts,
# for judging hot-path changes worth less than layout noise.
#
# usage: bench/build_layouts.sh OUTDIR
#   -> OUTDIR/rfgraph.L0 (default flags), .L1 (functions aligned to 64
#      bytes), .L2 (every block that is not a fall-through aligned to 32)
#
# The same source measures 0.01-0.02 apart in saxpy 1@1 paired ratios
# depending on where the linker puts hot code; a change should win on
# each layout before it is believed. Compare, e.g.:
#   FLOOR=2.3e10 bench/saxpy_paired.sh 15 1000000000 OLD/rfgraph.L0 NEW/rfgraph.L0 ...
# and the runtime alone (the map an identity whose loop compiles away):
#   OLD/rfgraph.L0 bench saxpy --identity --items 2000000000 --scheduler chain
set -euo pipefail
out=${1:?usage: bench/build_layouts.sh OUTDIR}
mkdir -p "$out"
flags=("" "-C llvm-args=-align-all-functions=6" "-C llvm-args=-align-all-nofallthru-blocks=5")
for i in 0 1 2; do
  target="${CARGO_TARGET_DIR:-target}/layout-$i"
  RUSTFLAGS="${flags[$i]}" CARGO_TARGET_DIR="$target" cargo build --release -q -p rfgraph-cli
  cp "$target/release/rfgraph" "$out/rfgraph.L$i"
done
echo "built $out/rfgraph.L0 .L1 .L2"
