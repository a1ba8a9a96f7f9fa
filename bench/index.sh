#!/usr/bin/env bash
# Benchmark for the index, every figure a ratio to git on the same repository in this one run:
#
#   bench/index.sh [--commits N] [--repo DIR] [--folders N] [--keep] [--bin PATH]
#
#   build    `context-graph index --rebuild` against `git log --name-only --format=%H HEAD`
#            (wall time and peak RSS);
#   warm     `context-graph why PATH --git --json` with the index fresh, against
#            `git rev-parse HEAD`;
#   refresh  the same query right after one new commit (the index adds it), against
#            `git rev-parse HEAD`;
#   folders  `context-graph why PATH --json` with the index fresh on a generated tree of
#            FOLDERS folders (default 50,000; `--folders 0` skips it), one file each and a few
#            records governing one of them, against `git rev-parse HEAD` (issue 17: a warm
#            answer should cost what it needs, not what the tree holds).
#
# Without --repo it generates a deterministic N-commit history (default 20,000) with
# bench/gen-history.sh in a temporary folder. PATH is the first folder the first record governs.
# Best of RUNS (default 5) interleaved runs each. Needs the Rust toolchain and git. `--bin PATH`
# times that binary instead of building the dist one (bench/refresh-ab.sh alternates two).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
commits=20000
folders=50000
repo=
keep=0
bin=
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --repo) repo=$(cd "$2" && pwd); shift ;;
    --folders) folders=$2; shift ;;
    --keep) keep=1 ;;
    --bin) bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    -h | --help) sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --profile dist --quiet)
  bin=$project/target/dist/context-graph
fi
tmp=$(mktemp -d)
if ((keep)); then trap 'rm -f "$tmp/rss"' EXIT; else trap 'rm -rf "$tmp"' EXIT; fi
if [[ -z $repo ]]; then
  repo=$tmp/history
  echo "generating $commits commits with git fast-import..." >&2
  "$here/gen-history.sh" "$repo" "$commits" 300 >/dev/null
fi
((keep)) && echo "repository: $repo" >&2
path=$("$bin" --root "$repo" --json --no-index 2>/dev/null |
  sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
[[ -n $path ]] || path=.

. "$here/lib.sh"
rss() { /usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1 || true; tail -n 1 "$tmp/rss"; }

gl=(git -C "$repo" log --name-only --format=%H HEAD)
rp=(git -C "$repo" rev-parse HEAD)
cg=("$bin" --root "$repo")

# build: cold, from nothing, interleaved with git log
"${gl[@]}" >/dev/null
b=() g=()
for ((r = 0; r < runs; r++)); do
  g+=("$(elapsed "${gl[@]}")")
  b+=("$(elapsed "${cg[@]}" index --rebuild)")
done
rss_g=$(rss "${gl[@]}")
rss_b=$(rss "${cg[@]}" index --rebuild)

# warm: the index is fresh (wait out the 2 s racy window of files stored just now)
"${cg[@]}" why "$path" --git --json >/dev/null 2>&1 || true
sleep 2.2
"${cg[@]}" why "$path" --git --json >/dev/null 2>&1 || true
w=() p=()
for ((r = 0; r < runs; r++)); do
  p+=("$(elapsed "${rp[@]}")")
  w+=("$(elapsed "${cg[@]}" why "$path" --git --json)")
done

# refresh: one new commit each time (touching a governed file), then the query. Each commit
# is new to the index: its content carries this run's clock, so a second run of the script
# does not re-create, with the same pinned dates, commits an earlier run left in the index (a
# commit the index has seen is a move of HEAD, not a new commit: that costs a redb write).
f=() q=()
target=$(git -C "$repo" ls-files -- "$path" | sed -n 1p)
[[ -n $target ]] || target=README.md
salt=$EPOCHREALTIME
for ((r = 0; r < runs; r++)); do
  echo "bench $r $salt" >>"$repo/$target"
  GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench \
    GIT_COMMITTER_EMAIL=b@bench GIT_AUTHOR_DATE="2030-01-0$((r % 9 + 1))T00:00:00Z" \
    GIT_COMMITTER_DATE="2030-01-0$((r % 9 + 1))T00:00:00Z" \
    git -C "$repo" commit -q -a -m "bench commit $r"
  q+=("$(elapsed "${rp[@]}")")
  f+=("$(elapsed "${cg[@]}" why "$path" --git --json)")
done
git -C "$repo" reset -q --hard "HEAD~$runs"

awk -v n="$(git -C "$repo" rev-list --count HEAD)" -v path="$path" -v runs="$runs" \
  -v b="$(min "${b[@]}")" -v g="$(min "${g[@]}")" -v rb="$rss_b" -v rg="$rss_g" \
  -v w="$(min "${w[@]}")" -v p="$(min "${p[@]}")" -v f="$(min "${f[@]}")" -v q="$(min "${q[@]}")" '
  BEGIN {
    printf "repository: %d commits; query path %s; best of %d interleaved runs\n", n, path, runs
    printf "build    context-graph index --rebuild %8.1f ms   git log --name-only %8.1f ms   ratio %.2fx\n", b/1e6, g/1e6, b/g
    printf "         peak RSS                      %8.1f MiB  git log --name-only %8.1f MiB  ratio %.2fx\n", rb/1024, rg/1024, rb/rg
    printf "warm     why --git --json              %8.1f ms   git rev-parse HEAD  %8.1f ms   ratio %.2fx\n", w/1e6, p/1e6, w/p
    printf "refresh  why --git --json, 1 new commit %7.1f ms   git rev-parse HEAD  %8.1f ms   ratio %.2fx\n", f/1e6, q/1e6, f/q
  }'

# folders: a generated tree of $folders folders (100 per parent), one file each, three records
# governing the first; committed with fast-import, then checked out.
if ((folders > 0)); then
  tree=$tmp/folders
  git init -q -b main "$tree"
  {
    echo "commit refs/heads/main"
    echo "committer Bench <b@bench> 1700000000 +0000"
    echo "data 5"
    echo "Start"
    for i in 1 2 3; do
      body="# $i. Decision $i

Status: Accepted

Date: 2024-01-0$i

The code in \`pkg/p0/d0/\` follows it."
      echo "M 100644 inline docs/adr/000$i-decision.md"
      echo "data ${#body}"
      echo "$body"
    done
    awk -v n="$folders" 'BEGIN {
      for (i = 0; i < n; i++) {
        printf "M 100644 inline pkg/p%d/d%d/f.txt\ndata 2\n%d\n", int(i / 100), i % 100, i % 10
      }
    }'
    echo
  } | git -C "$tree" fast-import --quiet
  git -C "$tree" reset -q --hard main
  fp=(git -C "$tree" rev-parse HEAD)
  fq=("$bin" --root "$tree" why pkg/p0/d0 --json)
  "${fq[@]}" >/dev/null 2>&1 || true
  sleep 2.2
  "${fq[@]}" >/dev/null 2>&1 || true
  t=() u=()
  for ((r = 0; r < runs; r++)); do
    u+=("$(elapsed "${fp[@]}")")
    t+=("$(elapsed "${fq[@]}")")
  done
  awk -v n="$folders" -v t="$(min "${t[@]}")" -v u="$(min "${u[@]}")" 'BEGIN {
    printf "folders  why --json, %d folders  %8.1f ms   git rev-parse HEAD  %8.1f ms   ratio %.2fx\n", n, t/1e6, u/1e6, t/u
  }'
fi
