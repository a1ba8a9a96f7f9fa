#!/usr/bin/env bash
# Benchmark for the pictures (ADR-0015): generates N decision records (default 5,000, as
# bench/check.sh does) and prints, best of RUNS runs each in this one run, the time of
# `grep -rc ADR-` over the records (the floor: reading them once), of the full check
# (`context-graph --json`), of `graph --format dot` and of `report --html`, with the ratios
# graph/check (goal <= 2) and report/check (goal <= 3). With chromium on PATH it also loads the
# 5,000-record page headless and prints when its load event fired (best of 3).
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
  ((i % 11 == 0)) && rel="$rel Amends ADR-$((i - 3))."
  printf -- '---\ntitle: Decision %d\nstatus: %s\ndate: 2024-%02d-%02d\n---\n# ADR-%s: Decision %d\n\nWe keep `src/mod%d/f%d.rs` as it is. %s\n\n## Context\n\n%s\n' \
    "$i" "$status" $((i % 12 + 1)) $((i % 28 + 1)) "$id" "$i" "$mod" "$i" "$rel" \
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua." \
    >"$dir/docs/adr/$id-decision-$i.md"
done
. bench/lib.sh
best() { # best of $runs wall times in ns for the command given
  local b=0 t
  for ((r = 0; r < runs; r++)); do
    t=$(elapsed "$@")
    if ((b == 0 || t < b)); then b=$t; fi
  done
  echo "$b"
}
g=$(best grep -rc ADR- "$dir/docs/adr")
c=$(best "$bin" --root "$dir" --json)
d=$(best "$bin" graph --root "$dir" --format dot)
h=$(best "$bin" report --root "$dir" --html "$dir/report.html")
"$bin" report --root "$dir" --html "$dir/report.html" || true
awk -v n="$n" -v g="$g" -v c="$c" -v d="$d" -v h="$h" -v kb="$(($(wc -c <"$dir/report.html") / 1024))" 'BEGIN {
  printf "records: %d\n", n
  printf "grep -rc ADR-:              %8.1f ms\n", g/1e6
  printf "context-graph --json:       %8.1f ms  (%.2fx grep)\n", c/1e6, c/g
  printf "graph --format dot:         %8.1f ms  (%.2fx the check; goal <= 2)\n", d/1e6, d/c
  printf "report --html (%d KiB):   %8.1f ms  (%.2fx the check; goal <= 3)\n", kb, h/1e6, h/c }'

browser=""
for b in chromium chromium-headless-shell chromium-browser google-chrome; do
  if command -v "$b" >/dev/null; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "page load: skipped (no chromium on PATH)"
  exit 0
fi
sed 's#</body>#<script>addEventListener("load",function(){document.documentElement.setAttribute("data-load-ms",String(Math.round(performance.now())))})</script></body>#' \
  "$dir/report.html" >"$dir/timed.html"
loads=()
for ((r = 0; r < 3; r++)); do
  profile=$(mktemp -d)
  ms=$("$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --dump-dom "file://$dir/timed.html" 2>/dev/null |
    grep -o 'data-load-ms="[0-9]*"' | grep -o '[0-9]*' || true)
  rm -rf "$profile"
  [ -n "$ms" ] && loads+=("$ms")
done
if [ ${#loads[@]} -gt 0 ]; then
  echo "page load in $browser: load event at $(min "${loads[@]}") ms (best of ${#loads[@]}; goal < 2000)"
else
  echo "page load: not measured (the browser gave no load time)"
fi
