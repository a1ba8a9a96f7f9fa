#!/usr/bin/env bash
# Interleaved A/B of bench/index.sh's refresh row for two (or more) builds, each against git in
# the same run:
#
#   bench/refresh-ab.sh [--commits N] [--repo DIR] BIN...
#
# For each binary, a clone of the history (DIR's, or a generated N-commit one, default 20,000)
# with its own index built by that binary; then RUNS rounds (default 9), each making one new
# commit (touching a governed file) in every clone in turn and timing, right after it,
# `git rev-parse HEAD` and `BIN why PATH --git --json` there, each round starting with the
# next binary. Prints, per binary, the median and best of each and their ratios, the median of
# each round's own ratio (the two timed moments apart, so the steadiest on a shared machine),
# and the load average. Needs git.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
commits=20000
source_repo=
runs=${RUNS:-9}
bins=()
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --repo) source_repo=$(cd "$2" && pwd); shift ;;
    -h | --help) sed -n '2,13s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "$0: unknown argument $1" >&2; exit 2 ;;
    *) bins+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")") ;;
  esac
  shift
done
((${#bins[@]})) || { echo "$0: name at least one binary" >&2; exit 2; }
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench \
  GIT_COMMITTER_EMAIL=b@bench
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ -z $source_repo ]]; then
  echo "generating $commits commits with git fast-import..." >&2
  source_repo=$tmp/history
  "$here/gen-history.sh" "$source_repo" "$commits" 300 >/dev/null
fi
path=$("${bins[0]}" --root "$source_repo" --json --no-index 2>/dev/null |
  sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
[[ -n $path ]] || path=.
n=${#bins[@]}
for ((i = 0; i < n; i++)); do
  git clone -q "$source_repo" "$tmp/clone$i"
  "${bins[i]}" --root "$tmp/clone$i" index --rebuild >/dev/null 2>&1
done
target=$(git -C "$tmp/clone0" ls-files -- "$path" | sed -n 1p)
[[ -n $target ]] || target=README.md
# The racy window of files just stored (ADR-0016), then one answer each to settle the memo.
sleep 2.2
for ((i = 0; i < n; i++)); do
  "${bins[i]}" --root "$tmp/clone$i" why "$path" --git --json >/dev/null 2>&1 || true
done
f=() q=() x=()
salt=$EPOCHREALTIME
for ((r = 0; r < runs; r++)); do
  # Each round starts with the next binary: on a loaded machine the one timed first in a round
  # ran faster (by about a seventh in the same build's ratio), which a fixed order credits to it.
  for ((j = 0; j < n; j++)); do
    i=$(((j + r) % n))
    d=$tmp/clone$i
    echo "bench $r $salt" >>"$d/$target"
    GIT_AUTHOR_DATE="2030-01-0$((r % 9 + 1))T00:00:00Z" \
      GIT_COMMITTER_DATE="2030-01-0$((r % 9 + 1))T00:00:00Z" \
      git -C "$d" commit -q -a -m "bench commit $r"
    g=$(elapsed git -C "$d" rev-parse HEAD)
    c=$(elapsed "${bins[i]}" --root "$d" why "$path" --git --json)
    q[i]+=" $g" f[i]+=" $c" x[i]+=" $((c * 1000 / g))"
  done
done
echo "refresh: why $path --git --json right after one new commit, $runs interleaved rounds"
for ((i = 0; i < n; i++)); do
  # shellcheck disable=SC2086 # the lists are space-separated on purpose
  awk -v b="${bins[i]}" -v mf="$(median ${f[i]})" -v mq="$(median ${q[i]})" \
    -v bf="$(min ${f[i]})" -v bq="$(min ${q[i]})" -v mx="$(median ${x[i]})" 'BEGIN {
    printf "%s\n  median %.2f ms / git rev-parse HEAD %.2f ms = %.2fx; best %.2f / %.2f ms = %.2fx; median of each round'"'"'s ratio %.2fx\n",
      b, mf/1e6, mq/1e6, mf/mq, bf/1e6, bq/1e6, bf/bq, mx/1000
  }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
