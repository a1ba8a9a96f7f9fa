#!/usr/bin/env bash
# Benchmark for writing records (ADR-0013): `new` and `supersede` on a folder of N records
# (default 5,000, adr-tools' form, committed, the index warm), each as a ratio to
# `git rev-parse HEAD` in the same repository, best of RUNS interleaved runs (default 5).
# Each run writes a new record (and `supersede` changes another); between runs, outside the
# timed span, `index --status` waits for the write's background refresh, so every run starts
# with the index fresh. BIN=PATH times another binary. A third row times `new` together with that wait: the write and the
# index brought up to date after it.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000}
runs=${RUNS:-5}
# BIN=PATH times that binary instead of building the dist one.
if [ -n "${BIN:-}" ]; then bin=$BIN; else
  cargo build --profile dist --quiet
  bin=$PWD/target/dist/context-graph
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$dir LC_ALL=C
git -C "$dir" init -q -b main
git -C "$dir" config user.name Bench
git -C "$dir" config user.email bench@example.com
mkdir -p "$dir/doc/adr"
for ((i = 1; i <= n; i++)); do
  printf '# %d. Decision %d\n\nDate: 2024-%02d-%02d\n\n## Status\n\nAccepted\n\n## Context\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.\n\n## Decision\n\nWe do %d.\n\n## Consequences\n\nNone.\n' \
    "$i" "$i" $((i % 12 + 1)) $((i % 28 + 1)) "$i" >"$dir/doc/adr/$(printf '%04d' "$i")-decision-$i.md"
done
git -C "$dir" add -A
git -C "$dir" commit -qm records
(cd "$dir" && "$bin" index >/dev/null && sleep 2.2 && "$bin" index >/dev/null)
. bench/lib.sh
settle() { (cd "$dir" && "$bin" index --status >/dev/null); }
g=() new=() sup=() both=()
for ((r = 0; r < runs; r++)); do
  cd "$dir"
  g+=("$(elapsed git rev-parse HEAD)")
  new+=("$(elapsed "$bin" new "Bench new $r" --date 2024-05-01)")
  settle
  g+=("$(elapsed git rev-parse HEAD)")
  sup+=("$(elapsed "$bin" supersede $((10 + r)) "Bench supersede $r" --date 2024-05-01)")
  settle
  t0=$EPOCHREALTIME
  "$bin" new "Bench both $r" --date 2024-05-01 >/dev/null 2>&1
  "$bin" index --status >/dev/null 2>&1
  t1=$EPOCHREALTIME
  both+=($(($(ns "$t1") - $(ns "$t0"))))
  cd - >/dev/null
done
fresh=$(cd "$dir" && "$bin" index --status --json | grep -c '"fresh": true' || true)
gb=$(min "${g[@]}") nb=$(min "${new[@]}") sb=$(min "${sup[@]}") bb=$(min "${both[@]}")
awk -v n="$n" -v g="$gb" -v a="$nb" -v s="$sb" -v b="$bb" -v fresh="$fresh" 'BEGIN {
  printf "records: %d (index fresh at the end: %s)\n", n, fresh ? "yes" : "no"
  printf "git rev-parse HEAD:                  %8.2f ms\n", g/1e6
  printf "new \"Title\":                         %8.2f ms  ratio %.2fx\n", a/1e6, a/g
  printf "supersede OLD \"Title\":               %8.2f ms  ratio %.2fx\n", s/1e6, s/g
  printf "new, then index --status (refreshed): %8.2f ms  ratio %.2fx\n", b/1e6, b/g }'
