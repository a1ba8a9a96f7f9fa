#!/usr/bin/env bash
# Benchmark for code mentions (ADR-0017), every figure a ratio measured in this one run:
#
#   bench/mentions.sh [N_RECORDS] [N_FILES]
#
#   check  the full check `--json --no-index` with mentions, against the same with
#          CONTEXT_GRAPH_MENTIONS=off (the records' terms still read; none resolved): the
#          mentions' own cost;
#   warm   `why FILE --json` with the index fresh (the mentions answered from the scan memo),
#          against `git rev-parse HEAD`; and the same with mentions off (its own memo).
#
# Generates N_RECORDS records (default 300) whose prose names classes, snake_case files,
# kebab-case packages and bare folders, in a git repository of N_FILES tracked files (default
# 2,000) in Rails/Go/TypeScript-like folders. Best of RUNS (default 7) interleaved runs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
n=${1:-300}
files=${2:-2000}
runs=${RUNS:-7}
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
(cd "$project" && cargo build --profile dist --quiet)
bin=$project/target/dist/context-graph
. "$here/lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
git init -q -b main .
mkdir -p docs/adr
for ((i = 0; i < files; i++)); do
  case $((i % 4)) in
    0) f=app/models/m$((i % 40))/widget_part_$i.rb ;;
    1) f=internal/pkg$((i % 50))/handler_$i.go ;;
    2) f=packages/ui-kit-$((i % 30))/src/PanelView$i.tsx ;;
    3) f=modules/net-$((i % 20))/main_$i.tf ;;
  esac
  mkdir -p "$(dirname "$f")"
  echo "// $i" >"$f"
done
for ((i = 1; i <= n; i++)); do
  a=$(((i * 7) % files / 4 * 4))
  b=$(((i * 11) % files / 4 * 4 + 2))
  printf '# %d. Decision %d\n\nStatus: Accepted\n\nDate: 2025-01-01\n\n## Context\n\nThe WidgetPart%d model and handler_%d talk to ui-kit-%d through the PanelView%d; net-%d keeps the routes.\nSee `src/` for the rest. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.\n\n## Decision\n\nWe keep the packages apart and the internal folders small.\n' \
    "$i" "$i" "$a" "$((a + 1))" "$((i % 30))" "$b" "$((i % 20))" >"docs/adr/$(printf %04d "$i")-decision-$i.md"
done
git add -A
git -c user.name=B -c user.email=b@x commit -qm init
mentioned=$("$bin" --json --no-index | grep -c '"confidence"' || true)
"$bin" index >/dev/null 2>&1
why_path=app/models/m0/widget_part_0.rb
# warm: the index is fresh (wait out the 2 s racy window of files stored just now), as
# bench/index.sh does.
"$bin" why "$why_path" --json >/dev/null 2>&1
sleep 2.2
"$bin" why "$why_path" --json >/dev/null 2>&1
on=() off=() warm=() rev=()
for ((r = 0; r < runs; r++)); do
  on+=("$(elapsed "$bin" --json --no-index)")
  off+=("$(elapsed env CONTEXT_GRAPH_MENTIONS=off "$bin" --json --no-index)")
  warm+=("$(elapsed "$bin" why "$why_path" --json)")
  rev+=("$(elapsed git rev-parse HEAD)")
done
# The same warm why with mentions off (its own memo, settled first): what mentions add to it.
CONTEXT_GRAPH_MENTIONS=off "$bin" why "$why_path" --json >/dev/null 2>&1
sleep 2.2
CONTEXT_GRAPH_MENTIONS=off "$bin" why "$why_path" --json >/dev/null 2>&1
warm_off=()
for ((r = 0; r < runs; r++)); do
  warm_off+=("$(elapsed env CONTEXT_GRAPH_MENTIONS=off "$bin" why "$why_path" --json)")
done
# `env` itself is a process start: measured apart, and taken off the run without mentions.
envs=()
for ((r = 0; r < runs; r++)); do envs+=("$(elapsed env true)"); done
t_on=$(min "${on[@]}") t_off=$(min "${off[@]}") t_env=$(min "${envs[@]}") t_warm=$(min "${warm[@]}") t_rev=$(min "${rev[@]}")
t_warm_off=$(min "${warm_off[@]}")
awk -v n="$n" -v f="$files" -v m="$mentioned" -v on="$t_on" -v off="$t_off" -v env="$t_env" -v w="$t_warm" -v r="$t_rev" -v woff="$t_warm_off" 'BEGIN {
  off -= env
  woff -= env
  printf "records: %d, tracked files: %d, code mentions: %d\n", n, f, m
  printf "check --json --no-index, mentions on:  %8.2f ms\n", on / 1e6
  printf "check --json --no-index, mentions off: %8.2f ms\n", off / 1e6
  printf "mentions ratio: %.2fx (goal <= 1.3x)\n", on / off
  printf "warm why FILE --json:  %8.2f ms\n", w / 1e6
  printf "git rev-parse HEAD:    %8.2f ms\n", r / 1e6
  printf "warm why FILE --json, mentions off: %8.2f ms\n", woff / 1e6
  printf "warm why ratio: %.2fx (goal <= 3x); without mentions %.2fx\n", w / r, woff / r
}'
