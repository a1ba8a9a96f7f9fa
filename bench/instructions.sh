#!/usr/bin/env bash
# Instructions, not wall time: the same on every run, so a change of a few percent shows where
# `bench/index.sh`'s wall times on a noisy machine cannot. Counts the user-space instructions of
#
#   warm     `context-graph why PATH --git --json` with the index fresh,
#   git      `git rev-parse HEAD`,
#
# with callgrind, and prints both and their ratio (kernel work, such as stats and page faults,
# is not counted: `bench/index.sh` is the benchmark of record).
#
#   bench/instructions.sh [--commits N] [--repo DIR]
#
# Without --repo it generates the deterministic N-commit history (default 20,000) of
# bench/gen-history.sh in a temporary folder. Needs valgrind, the Rust toolchain and git.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
commits=20000
repo=
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --repo) repo=$(cd "$2" && pwd); shift ;;
    -h | --help) sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
(cd "$project" && cargo build --profile dist --quiet)
bin=$project/target/dist/context-graph
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $repo ]]; then
  repo=$tmp/history
  echo "generating $commits commits with git fast-import..." >&2
  "$here/gen-history.sh" "$repo" "$commits" 300 >/dev/null
fi
path=$("$bin" --root "$repo" --json --no-index 2>/dev/null |
  sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
[[ -n $path ]] || path=.

# Fresh and settled: a query, past the 2 s racy window, another (which stores nothing).
"$bin" --root "$repo" why "$path" --git --json >/dev/null 2>&1 || true
sleep 2.2
"$bin" --root "$repo" why "$path" --git --json >/dev/null 2>&1 || true

count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
w=$(count "$bin" --root "$repo" why "$path" --git --json)
g=$(count git -C "$repo" rev-parse HEAD)
awk -v w="$w" -v g="$g" -v path="$path" 'BEGIN {
  printf "warm     why %s --git --json   %6.2fM instructions\n", path, w/1e6
  printf "git      rev-parse HEAD           %6.2fM instructions\n", g/1e6
  printf "ratio    %.1fx\n", w/g
}'
