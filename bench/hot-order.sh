#!/usr/bin/env bash
# The functions a warm answer and the commit hook run, in the order they first run, for the
# linker to place together (issue 41, ADR-0015): every hook and query is a new process, and
# the code it runs was spread over a hundred 64 KB windows of a 14 MB text, each a page fault
# at every start. Linked in this order, vector's warm `why` took 239 page faults instead of
# 367 and 2.02 ms instead of 2.50 (docs/benchmarks.md, eleventh pass).
#
#   bench/hot-order.sh [--bin PATH] [WORKTREE...]  > bench/hot-symbols.txt
#
# Runs, under valgrind's callgrind, a warm `why FILE --json` and `why FILE --git --json` in
# this repository and in each WORKTREE given (FILE the middle path of `git ls-files`), and
# `hook commit-msg` on a staged change to a governed file in a scratch clone of this
# repository; prints the mangled names of the functions they ran, each once, in the order
# first seen. The list names functions, not addresses: a later build places the ones it still
# has in this order and the rest after them, so the list goes stale slowly and is made again
# with this script. The dist profile's fat LTO inlines most of what a release build keeps
# apart (a list made from one kept a fifth of its names in the other), so the list in the
# repository joins one made with each: `--bin` a static dist build, then a static release
# build, the first list's names first, each name once. `.github/workflows/release.yml` and
# `STATIC=1 bench/corpora-warm.sh` link with it (lld's `--symbol-ordering-file`). `--bin PATH`
# profiles that binary (built as the archive is, without the order); otherwise a static
# release build is made.
# Needs valgrind and git.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
bin=
trees=()
while (($#)); do
  case $1 in
    --bin) bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    -h | --help) sed -n '2,23s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) trees+=("$(cd "$1" && pwd)") ;;
  esac
  shift
done
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Ana GIT_AUTHOR_EMAIL=ana@example.com
export GIT_COMMITTER_NAME=Ana GIT_COMMITTER_EMAIL=ana@example.com
if [[ -z $bin ]]; then
  (cd "$project" && RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static" \
    cargo build --release --quiet --target x86_64-unknown-linux-gnu --target-dir target/static)
  bin=$project/target/static/x86_64-unknown-linux-gnu/release/context-graph
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
# profile DIR COMMAND...: COMMAND run in DIR under callgrind, its profile kept.
profile() {
  local dir=$1
  shift
  n=$((n + 1))
  (cd "$dir" && valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/$n.cg" \
    "$@" >/dev/null 2>&1 </dev/null) || true
}
warm() {
  local tree=$1 file
  file=$(cd "$tree" && git ls-files | sed -n "$(($(git ls-files | wc -l) / 2 + 1))p")
  (cd "$tree" && "$bin" index >/dev/null 2>&1 || true)
  (cd "$tree" && "$bin" why "$file" --json >/dev/null 2>&1 || true)
  sleep 2.2 # past the racy window: the next answers are warm
  (cd "$tree" && "$bin" why "$file" --json >/dev/null 2>&1 || true)
  profile "$tree" "$bin" why "$file" --json
  profile "$tree" "$bin" why "$file" --git --json
}
git clone -q --local "$project" "$tmp/self"
warm "$tmp/self"
for tree in "${trees[@]}"; do
  warm "$tree"
done
# The commit hook on a staged change to a file this repository's records govern.
(
  cd "$tmp/self"
  "$bin" index >/dev/null 2>&1 || true
  echo "// a change" >>src/git/walk.rs
  git add src/git/walk.rs
  echo "Change the walk" >"$tmp/message"
  sleep 2.2
  "$bin" hook commit-msg "$tmp/message" >/dev/null 2>&1 || true
)
profile "$tmp/self" "$bin" hook commit-msg "$tmp/message"
for ((k = 1; k <= n; k++)); do
  sed -n -E 's/^c?fn=\([0-9]+\) (.+)$/\1/p' "$tmp/$k.cg"
done | grep -v '^0x' | awk '!seen[$0]++'
