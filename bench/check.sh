#!/usr/bin/env bash
# Benchmark for the full check: generates N decision records (default 5,000) and prints the
# time of `context-graph --json` as a ratio to `grep -rc ADR-` over the same files (reading
# them all once is the floor). Best of 5 runs each, both measured in this one run.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
runs=${RUNS:-5}
cargo build --profile dist --quiet
bin=$PWD/target/dist/context-graph
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/docs/adr" "$dir/src"
for ((i = 0; i < 50; i++)); do mkdir -p "$dir/src/mod$i"; done
for ((i = 1; i <= n; i++)); do
  id=$(printf '%04d' "$i")
  mod=$((i % 50))
  : >"$dir/src/mod$mod/f$i.rs"
  status=Accepted
  ((i % 7 == 0)) && status="Superseded by ADR-$((i + 1))"
  rel="See ADR-$((i > 1 ? i - 1 : 2))."
  ((i % 7 == 1 && i > 1)) && rel="Supersedes ADR-$((i - 1))."
  printf -- '---\ntitle: Decision %d\nstatus: %s\ndate: 2024-%02d-%02d\n---\n# ADR-%s: Decision %d\n\nWe keep `src/mod%d/f%d.rs` as it is. %s\n\n## Context\n\n%s\n' \
    "$i" "$status" $((i % 12 + 1)) $((i % 28 + 1)) "$id" "$i" "$mod" "$i" "$rel" \
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris." \
    >"$dir/docs/adr/$id-decision-$i.md"
done
. bench/lib.sh
best() { # best of $runs wall times in ns for the command given
  local b=0 t0 t1 t
  for ((r = 0; r < runs; r++)); do
    t0=$EPOCHREALTIME; "$@" >/dev/null 2>&1 || true; t1=$EPOCHREALTIME
    t=$(($(ns "$t1") - $(ns "$t0")))
    if ((b == 0 || t < b)); then b=$t; fi
  done
  echo "$b"
}
g=$(best grep -rc ADR- "$dir/docs/adr")
c=$(best "$bin" --root "$dir" --json)
awk -v n="$n" -v g="$g" -v c="$c" 'BEGIN {
  printf "records: %d\ngrep -rc ADR-:          %8.1f ms\ncontext-graph --json:   %8.1f ms\nratio: %.2fx\n", n, g/1e6, c/1e6, c/g }'
