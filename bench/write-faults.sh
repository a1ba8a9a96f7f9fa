#!/usr/bin/env bash
# The write fault sweep (issue 38, ADR-0013): is a record ever lost, and do writers at once
# ever take one number?
#
# 1. KILLS runs (default 40) of `status 1 ...` on a record of about 2.9 MB, each sent SIGKILL
#    after a random delay from 80% to 105% of the command's median run time (the record is
#    read before, written at the end): how many left the record neither its old bytes nor its
#    new ones (cut short, emptied, gone).
# 2. N (default 12) `supersede` processes started at once on one folder, then N `amend`, then a
#    mix of `new`, `supersede` and `amend`: how many numbers were taken twice.
#
# BIN=PATH sweeps that binary (a debug build is fine: no failpoint is set here); without it the
# release one is built. ROUNDS=R repeats each concurrent case R times (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${KILLS:-40}
n=${N:-12}
rounds=${ROUNDS:-1}
if [ -n "${BIN:-}" ]; then bin=$BIN; else
  cargo build --release --quiet
  bin=$PWD/target/release/context-graph
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export HOME=$dir LC_ALL=C
. bench/lib.sh

# ----- 1. random kills during `status` on a 2.9 MB record -----
big=$dir/big
mkdir -p "$big/doc/adr"
rec=$big/doc/adr/0001-big-decision.md
{
  printf '# 1. Big decision\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\n'
  for ((i = 0; i < 42600; i++)); do
    printf 'Line %05d of a long record, written by hand and not yet committed.\n' "$i"
  done
} >"$dir/old.md"
cp "$dir/old.md" "$rec"
"$bin" status 1 deprecated --root "$big" --no-index >/dev/null
cp "$rec" "$dir/new.md"
cmp -s "$dir/old.md" "$dir/new.md" && { echo "status changed nothing" >&2; exit 1; }
# The command's own run time, the span the kills fall in.
times=()
for ((i = 0; i < 5; i++)); do
  cp "$dir/old.md" "$rec"
  times+=("$(elapsed "$bin" status 1 deprecated --root "$big" --no-index)")
done
span_us=$(($(median "${times[@]}") / 1000))
lost=0 old=0 new=0 empty=0
for ((k = 0; k < kills; k++)); do
  cp "$dir/old.md" "$rec"
  rm -f "$big"/doc/adr/.*.tmp
  delay_us=$((RANDOM * 32768 + RANDOM))
  delay_us=$((span_us * 80 / 100 + delay_us % (span_us / 4 + 1)))
  "$bin" status 1 deprecated --root "$big" --no-index >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '0.%06d' "$delay_us")"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if cmp -s "$rec" "$dir/old.md"; then old=$((old + 1))
  elif cmp -s "$rec" "$dir/new.md"; then new=$((new + 1))
  else
    lost=$((lost + 1))
    [ -s "$rec" ] || empty=$((empty + 1))
  fi
done
size=$(wc -c <"$dir/old.md")
echo "kills during status on a ${size}-byte record (run time $((span_us / 1000)) ms): $kills"
echo "  left whole: $((old + new)) (old bytes $old, new bytes $new); not whole: $lost (empty: $empty)"

# ----- 2. writers at once -----
# A folder of 24 accepted records, then the runs given, all started at once; prints how many
# numbers were taken twice.
at_once() {
  local root=$dir/at-once
  rm -rf "$root"
  mkdir -p "$root/doc/adr"
  for ((i = 1; i <= 24; i++)); do
    printf '# %d. Decision %d\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nText %d.\n' \
      "$i" "$i" "$i" >"$root/doc/adr/$(printf '%04d' "$i")-decision-$i.md"
  done
  local pids=() run
  for run in "$@"; do
    # shellcheck disable=SC2086
    eval "\"\$bin\" $run --root \"\$root\" --no-index" >/dev/null 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  local files distinct
  files=$(find "$root/doc/adr" -name '[0-9]*.md' | wc -l)
  distinct=$(find "$root/doc/adr" -name '[0-9]*.md' -printf '%f\n' | cut -c1-4 | sort -u | wc -l)
  echo $((files - distinct))
}
sup=() am=() mix=()
for ((i = 1; i <= n; i++)); do
  sup+=("supersede $i 'Successor $i'")
  am+=("amend $i 'Amendment $i'")
  case $((i % 3)) in
    0) mix+=("new 'Fresh $i'") ;;
    1) mix+=("supersede $i 'Successor $i'") ;;
    2) mix+=("amend $i 'Amendment $i'") ;;
  esac
done
ds=0 da=0 dm=0
for ((r = 0; r < rounds; r++)); do
  ds=$((ds + $(at_once "${sup[@]}")))
  da=$((da + $(at_once "${am[@]}")))
  dm=$((dm + $(at_once "${mix[@]}")))
done
echo "duplicate numbers, $n writers at once, $rounds round(s):"
echo "  supersede: $ds; amend: $da; new + supersede + amend: $dm"
