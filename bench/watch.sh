#!/usr/bin/env bash
# Benchmark for `context-graph watch` (ADR-0010): how soon after a change the index is fresh,
# and what an idle watch costs, on a moderately large tree:
#
#   bench/watch.sh [--commits N] [--dirs D] [--files F] [--keep]
#
# The tree is a generated N-commit history (default 2,000; bench/gen-history.sh, 300 records
# in docs/adr governing folders of src/) plus D folders (default 2,000) of F source files each
# (default 10), committed. With the index built, `watch` runs with its stderr on a pipe this
# script reads line by line; each figure is the wall time from just before a change to the
# moment its `refreshed` line arrives (so it holds the event, the 60 ms quiet time and the
# refresh), best, median and worst of RUNS (default 10) interleaved changes:
#
#   source   a line appended to a source file in a governed folder (the 200 ms target);
#   record   a line appended to a record;
#   new      a new source file in a governed folder (then removed, unmeasured);
#   commit   `git commit -a` of a source edit, from before git starts.
#
# After every measured refresh `index --status --json` must say fresh; the script says how
# many did. Baselines in the same run: `context-graph index` run by hand after the same source
# edit, `git status --porcelain` on the tree (what noticing a change by scanning costs), and
# the watch's start (watches set and the first refresh). Idle: the watch's CPU time over 5 s
# with nothing changing (from /proc, Linux only). Needs the Rust toolchain, git and Linux.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
commits=2000
dirs=2000
files=10
keep=0
runs=${RUNS:-10}
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --dirs) dirs=$2; shift ;;
    --files) files=$2; shift ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,24s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench \
  GIT_COMMITTER_EMAIL=b@bench
(cd "$project" && cargo build --profile dist --quiet)
bin=$project/target/dist/context-graph
tmp=$(mktemp -d)
wpid=
cleanup() {
  [[ -n $wpid ]] && kill "$wpid" 2>/dev/null && wait "$wpid" 2>/dev/null
  if ((keep)); then rm -f "$tmp/fifo"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

repo=$tmp/tree
echo "generating $commits commits and $((dirs * files)) source files..." >&2
"$here/gen-history.sh" "$repo" "$commits" 300 >/dev/null
for ((d = 0; d < dirs; d++)); do
  mkdir -p "$repo/src/wide/d$d"
  for ((f = 0; f < files; f++)); do
    printf 'pub fn f%d_%d() {}\n' "$d" "$f" >"$repo/src/wide/d$d/f$f.rs"
  done
done
json=$("$bin" --root "$repo" --json --no-index 2>/dev/null || true)
path=$(sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' <<<"$json" | sed -n 1p)
[[ -n $path ]] || { echo "$0: no governed folder found" >&2; exit 1; }
src=$repo/${path}watch-bench.rs
echo 'pub fn bench() {}' >"$src"
records=("$repo"/docs/adr/*.md)
record=${records[0]}
git -C "$repo" add -A
git -C "$repo" commit -q -m "A wide source tree"
((keep)) && echo "repository: $repo" >&2
"$bin" --root "$repo" index >/dev/null
sleep 2.2 # past the racy window: the first refresh below finds the index fresh

. "$here/lib.sh"

# The watch, its stderr read here line by line.
mkfifo "$tmp/fifo"
t0=$EPOCHREALTIME
"$bin" --root "$repo" watch 2>"$tmp/fifo" &
wpid=$!
exec 3<"$tmp/fifo"
# Waits for the next `refreshed` line: in $line, and its arrival in $arrived (ns).
line= arrived= took=
refreshed() {
  while IFS= read -r -t 30 line <&3; do
    if [[ $line == *"watch: refreshed in"* ]]; then
      arrived=$(ns "$EPOCHREALTIME")
      took=${line#*refreshed in }
      took=$((${took%% ms*} * 1000000))
      return 0
    fi
  done
  echo "$0: no refresh line within 30 s" >&2
  exit 1
}
refreshed
start=$((arrived - $(ns "$t0")))

# Reads lines until none came for 0.3 s: the next change stands apart from the last refresh,
# and no late line of an earlier change is taken for its own.
drain() { while IFS= read -r -t 0.3 line <&3; do :; done; }

fresh=0 checked=0
check_fresh() {
  checked=$((checked + 1))
  if "$bin" --root "$repo" index --status --json | grep -q '"fresh": true'; then
    fresh=$((fresh + 1))
  else
    echo "not fresh after: $line" >&2
  fi
}

salt=$EPOCHREALTIME
s=() r=() n=() c=() h=() g=() gc=() ts=() tr=() tn=() tc=()
for ((i = 0; i < runs; i++)); do
  drain
  t=$(ns "$EPOCHREALTIME")
  printf '// source edit %d %s\n' "$i" "$salt" >>"$src"
  refreshed
  s+=($((arrived - t))) ts+=("$took")
  check_fresh

  drain
  t=$(ns "$EPOCHREALTIME")
  printf '\nBench edit %d %s.\n' "$i" "$salt" >>"$record"
  refreshed
  r+=($((arrived - t))) tr+=("$took")
  check_fresh

  drain
  t=$(ns "$EPOCHREALTIME")
  printf 'pub fn new() {}\n' >"$repo/${path}new-$i.rs"
  refreshed
  n+=($((arrived - t))) tn+=("$took")
  check_fresh
  rm "$repo/${path}new-$i.rs"
  refreshed

  drain
  printf '// committed %d %s\n' "$i" "$salt" >>"$src"
  refreshed
  drain
  t=$(ns "$EPOCHREALTIME")
  GIT_AUTHOR_DATE="2030-01-0$((i % 9 + 1))T00:00:00Z" \
    GIT_COMMITTER_DATE="2030-01-0$((i % 9 + 1))T00:00:00Z" \
    git -C "$repo" commit -q -a -m "bench commit $i $salt"
  gc+=($(($(ns "$EPOCHREALTIME") - t)))
  while :; do
    refreshed
    [[ $line == *"1 new commit"* ]] && break
  done
  c+=($((arrived - t))) tc+=("$took")
  check_fresh

  # Baselines, with the watch idle: `index` by hand after the same kind of edit, and a scan
  # of the tree by git.
  drain
  kill -STOP "$wpid"
  printf '// by hand %d %s\n' "$i" "$salt" >>"$src"
  h+=("$(elapsed "$bin" --root "$repo" index)")
  g+=("$(elapsed git -C "$repo" status --porcelain)")
  kill -CONT "$wpid"
  refreshed # the watch's own refresh of that edit, unmeasured
done
drain

# Idle: CPU ticks (utime + stime) over 5 s with nothing changing.
ticks() { awk '{ print $14 + $15 }' "/proc/$wpid/stat"; }
hz=$(getconf CLK_TCK)
i0=$(ticks)
sleep 5
i1=$(ticks)
watches=$(grep -c '^inotify' "/proc/$wpid/fdinfo/"* 2>/dev/null | awk -F: '{ s += $2 } END { print s + 0 }')

kill -INT "$wpid"
code=0
wait "$wpid" || code=$?
wpid=

stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%7.1f %7.1f %7.1f", v[1]/1e6, v[int((NR+1)/2)]/1e6, v[NR]/1e6 }'; }
med() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR+1)/2)] }'; }
ms() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }'; }
printf 'tree: %d commits, %d records, %d files in %d folders; %d changes of each kind\n' \
  "$(git -C "$repo" rev-list --count HEAD)" "${#records[@]}" \
  "$(git -C "$repo" ls-files | wc -l)" "$(find "$repo" -path "$repo/.git" -prune -o -type d -print | wc -l)" "$runs"
printf 'change → refreshed line   best  median   worst (ms)   the refresh itself (median)\n'
printf '  source edit           %s   %6.1f ms   (target: 200 ms)\n' "$(stats "${s[@]}")" "$(ms "$(med "${ts[@]}")")"
printf '  record edit           %s   %6.1f ms\n' "$(stats "${r[@]}")" "$(ms "$(med "${tr[@]}")")"
printf '  new source file       %s   %6.1f ms\n' "$(stats "${n[@]}")" "$(ms "$(med "${tn[@]}")")"
printf '  git commit -a         %s   %6.1f ms   (git commit alone: median %.1f ms)\n' "$(stats "${c[@]}")" "$(ms "$(med "${tc[@]}")")" "$(ms "$(med "${gc[@]}")")"
awk -v s="$(med "${s[@]}")" -v h="$(med "${h[@]}")" -v g="$(med "${g[@]}")" -v st="$start" '
  BEGIN {
    printf "baselines (median): context-graph index by hand %.1f ms, git status --porcelain %.1f ms\n", h/1e6, g/1e6
    printf "  source edit under watch / index by hand: %.2fx; / git status: %.2fx\n", s/h, s/g
    printf "watch start (watches set, first refresh): %.1f ms\n", st/1e6
  }'
printf 'fresh after %d of %d measured refreshes\n' "$fresh" "$checked"
printf 'idle: %d CPU ticks (1/%d s) in 5 s; %d inotify watches\n' "$((i1 - i0))" "$hz" "$watches"
printf 'Ctrl-C: exit %d\n' "$code"
