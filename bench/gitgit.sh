#!/usr/bin/env bash
# Benchmark for the index on a real, big history (git/git: about 82,000 commits), every figure a
# ratio to git on the same repository in this one run:
#
#   bench/gitgit.sh [REPO] [--keep]
#
#   build    `context-graph index --rebuild` against `git log --name-only --format=%H HEAD`
#            (wall time and peak RSS; targets 0.8x and 1x);
#   warm     `context-graph why FILE --git --json` with the index fresh, against
#            `git rev-parse HEAD` (target 5x).
#
# REPO (a clone of git/git; required) is not written to: the script clones it (`git clone --local`:
# the packs are hard links, the same bytes) into a temporary folder and writes a few decision
# records into an untracked docs/adr/ there, since git/git has none. `--keep` keeps the clone
# and prints where it is. Median of RUNS (default 5) interleaved runs each. BIN=path times that
# binary instead of building this one. Needs the Rust toolchain, git and /usr/bin/time.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
src=
keep=0
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --keep) keep=1 ;;
    -h | --help) sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "$0: unknown argument $1" >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done
[[ -n $src ]] || { echo "$0: needs REPO, a clone of git/git (see --help)" >&2; exit 2; }
src=$(cd "$src" && pwd)
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
bin=${BIN:-}
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --profile dist --quiet)
  bin=${CARGO_TARGET_DIR:-$project/target}/dist/context-graph
fi
tmp=$(mktemp -d)
if ((keep)); then trap 'rm -f "$tmp/rss"' EXIT; else trap 'rm -rf "$tmp"' EXIT; fi
repo=$tmp/repo
echo "cloning $src..." >&2
git clone -q --local "$src" "$repo"
((keep)) && echo "repository: $repo" >&2

# A few records governing busy folders, dated so that the queries have commits to count.
mkdir -p "$repo/docs/adr"
n=0
for spec in "builtin/ 2024-01-01" "refs/ 2023-06-01" "t/ 2025-01-01" "Documentation/ 2022-01-01"; do
  n=$((n + 1))
  set -- $spec
  printf -- '---\ngoverns:\n  - %s\n---\n\n# %d. Decision %d\n\nStatus: Accepted\n\nDate: %s\n\n## Context\n\nThe code in `%s` needed a rule.\n' \
    "$1" "$n" "$n" "$2" "$1" >"$repo/docs/adr/000$n-decision-$n.md"
done
file=builtin/log.c

# Wall time in ns from bash's own clock (no `date` process inside the timed span).
. "$here/lib.sh"
# Wall time (ns) and peak RSS (KiB) of one run, both under /usr/bin/time (its own start-up, the
# same for both sides, is in the wall time: about a millisecond of several seconds).
timed() {
  local t0 t1
  t0=$EPOCHREALTIME
  /usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1 || true
  t1=$EPOCHREALTIME
  echo "$(($(ns "$t1") - $(ns "$t0"))) $(tail -n 1 "$tmp/rss")"
}

gl=(git -C "$repo" log --name-only --format=%H HEAD)
rp=(git -C "$repo" rev-parse HEAD)
cg=("$bin" --root "$repo")

# build: from nothing, interleaved with git log (one warm-up of each: the pack in the page cache)
"${gl[@]}" >/dev/null
"${cg[@]}" index --rebuild >/dev/null 2>&1 || true
b=() g=() rb=() rg=()
for ((r = 0; r < runs; r++)); do
  read -r t m < <(timed "${gl[@]}")
  g+=("$t") rg+=("$m")
  read -r t m < <(timed "${cg[@]}" index --rebuild)
  b+=("$t") rb+=("$m")
done

# warm: the index is fresh (wait out the 2 s racy window of files stored just now)
"${cg[@]}" why "$file" --git --json >/dev/null 2>&1 || true
sleep 2.2
"${cg[@]}" why "$file" --git --json >/dev/null 2>&1 || true
w=() p=()
for ((r = 0; r < runs; r++)); do
  p+=("$(elapsed "${rp[@]}")")
  w+=("$(elapsed "${cg[@]}" why "$file" --git --json)")
done

awk -v n="$(git -C "$repo" rev-list --count HEAD)" -v file="$file" -v runs="$runs" \
  -v b="$(median "${b[@]}")" -v g="$(median "${g[@]}")" \
  -v rb="$(median "${rb[@]}")" -v rg="$(median "${rg[@]}")" \
  -v w="$(median "${w[@]}")" -v p="$(median "${p[@]}")" '
  BEGIN {
    printf "repository: %d commits; query %s; median of %d interleaved runs\n", n, file, runs
    printf "build    context-graph index --rebuild %8.1f ms   git log --name-only %8.1f ms   ratio %.2fx\n", b/1e6, g/1e6, b/g
    printf "         peak RSS                      %8.1f MiB  git log --name-only %8.1f MiB  ratio %.2fx\n", rb/1024, rg/1024, rb/rg
    printf "warm     why --git --json              %8.1f ms   git rev-parse HEAD  %8.1f ms   ratio %.2fx\n", w/1e6, p/1e6, w/p
  }'
