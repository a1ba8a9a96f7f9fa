#!/usr/bin/env bash
# Benchmark for the git hooks and `review` (ADR-0008), every figure a ratio to git on the same
# repository in this one run:
#
#   bench/hooks.sh [--commits N] [--repo DIR] [--keep] [--bin PATH]
#
#   commit      `git commit -m` of one governed file with every hook installed, against the same
#               commit with no hooks (`-c core.hooksPath=` an empty folder); and, for the record,
#               that commit followed by `index --status`, which waits for the refresh the
#               post-commit hook leaves running;
#   commit-msg  the installed commit-msg hook run alone on a staged governed change, as git runs
#               it, against `git rev-parse HEAD`;
#   rebase      `git rebase` of a 20-commit branch onto a new base with every hook installed,
#               against the same rebase with no hooks;
#   floor       (commit and rebase) the same with seven hooks that do nothing (`#!/bin/sh`, `:`):
#               what git's starting a shell per hook costs, whatever the hook does; and for the
#               commit, the same seven with commit-msg starting the binary to do nothing
#               (`--version`): the least a hook that works the warning out can cost;
#   branch      (commit) the same on a topic branch 20 commits ahead of the branch it left, where
#               commit-msg reads the branch, against the same with commit-msg starting us;
#   worktree    `git worktree add` of a new branch with every hook installed (the main worktree's
#               index fresh), against the same with no hooks (issue 17); the new worktree's
#               refresh goes on after git returns, and is waited for outside the time taken;
#   review      `context-graph review HEAD~100..HEAD --json` against
#               `git log --name-only --format=%H HEAD~100..HEAD`.
#
# Without --repo it generates a deterministic N-commit history (default 20,000) with
# bench/gen-history.sh in a temporary folder (--repo DIR works on a copy of DIR's history, made
# with `git clone`, so DIR itself is left alone). The governed file is the first file under the
# first folder the first record governs. Best of RUNS (default 5) interleaved runs each. Needs
# the Rust toolchain and git. `--bin PATH` times that binary instead of building the dist one
# (to compare two builds).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
commits=20000
source_repo=
keep=0
bin=
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --repo) source_repo=$(cd "$2" && pwd); shift ;;
    --keep) keep=1 ;;
    --bin) bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    -h | --help) sed -n '2,34s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=b@bench
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --profile dist --quiet)
  bin=$project/target/dist/context-graph
fi
tmp=$(mktemp -d)
if ((keep)); then :; else trap 'rm -rf "$tmp"' EXIT; fi
repo=$tmp/history
if [[ -n $source_repo ]]; then
  git clone -q "$source_repo" "$repo"
else
  echo "generating $commits commits with git fast-import..." >&2
  "$here/gen-history.sh" "$repo" "$commits" 300 >/dev/null
fi
((keep)) && echo "repository: $repo" >&2
cd "$repo"
git config user.name Bench
git config user.email b@bench
path=$({ "$bin" --json --no-index 2>/dev/null || true; } | sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
target=$(git ls-files -- "${path:-.}" | sed -n 1p)
[[ -n $target ]] || { echo "$0: found no governed file" >&2; exit 1; }
empty=$tmp/no-hooks
mkdir -p "$empty"
# The floor: the same seven hooks, each a `#!/bin/sh` script that does nothing. What git's
# starting a shell per hook costs, whatever the hook does.
trivial=$tmp/trivial-hooks
mkdir -p "$trivial"
# And the least any commit-msg hook of ours can cost: those seven, commit-msg starting the
# binary to do nothing (`--version`), since the warning is the binary's to work out.
started=$tmp/started-hooks
mkdir -p "$trivial" "$started"
for h in pre-commit prepare-commit-msg commit-msg post-commit post-merge post-checkout post-rewrite; do
  printf '#!/bin/sh\n:\n' >"$trivial/$h"
  printf '#!/bin/sh\n:\n' >"$started/$h"
  chmod +x "$trivial/$h" "$started/$h"
done
printf '#!/bin/sh\n"%s" --version >/dev/null\n' "$bin" >"$started/commit-msg"
hooks=$(git rev-parse --git-path hooks)
hooks=$(cd "$(dirname "$hooks")" && pwd)/$(basename "$hooks")
"$bin" install-hooks >/dev/null
start=$(git rev-parse HEAD)
branch=$(git symbolic-ref --short HEAD)

# Wall time in ns from bash's own clock (see bench/index.sh).
. "$here/lib.sh"
salt=$EPOCHREALTIME
change() { echo "bench $1 $salt" >>"$target"; git add -- "$target"; }

# The index is fresh before anything is timed (and the 2 s racy window of its files is over).
"$bin" index >/dev/null 2>&1
sleep 2.2
"$bin" index >/dev/null 2>&1

# commit: with every hook, then without, interleaved; each commits a new change. The refresh
# post-commit starts goes on after git returns (ADR-0008): `index --status` waits for it before
# the next run, outside the time taken, so it never runs beside another timed command; how long
# until the index is fresh is timed too (commit, then status).
with=() without=() settled=() floor=() begun=()
for ((r = 0; r < runs; r++)); do
  change "floor $r"
  floor+=("$(elapsed git -c core.hooksPath="$trivial" commit -q -m "bench floor $r")")
  change "start $r"
  begun+=("$(elapsed git -c core.hooksPath="$started" commit -q -m "bench start $r")")
  change "on $r"
  with+=("$(elapsed git -c core.hooksPath="$hooks" commit -q -m "bench commit $r")")
  "$bin" index --status >/dev/null 2>&1
  change "off $r"
  without+=("$(elapsed git -c core.hooksPath="$empty" commit -q -m "bench commit $r")")
  change "fresh $r"
  settled+=("$(elapsed sh -c 'git -c core.hooksPath="$1" commit -q -m "bench fresh" && "$2" index --status' - "$hooks" "$bin")")
done

# commit-msg alone: a staged governed change, the hook run as git runs it (from the top of the
# work tree, with the message file), against `git rev-parse HEAD`.
change "msg"
msg=$tmp/COMMIT_EDITMSG
echo "bench message" >"$msg"
cm=() rp=()
for ((r = 0; r < runs; r++)); do
  rp+=("$(elapsed git rev-parse HEAD)")
  cm+=("$(elapsed "$hooks/commit-msg" "$msg")")
done
git reset -q --hard "$start"

# rebase: a 20-commit topic branch onto a base one commit ahead of where it started.
git -c core.hooksPath="$empty" checkout -q -b bench-base "$start"
echo "base $salt" >>README.md
git -c core.hooksPath="$empty" commit -q -a -m "bench base"
git -c core.hooksPath="$empty" checkout -q -b bench-topic "$start"
for ((i = 0; i < 20; i++)); do
  change "topic $i"
  git -c core.hooksPath="$empty" commit -q -m "bench topic $i"
done
topic=$(git rev-parse HEAD)
rb_with=() rb_without=() rb_floor=()
for ((r = 0; r < runs; r++)); do
  git -c core.hooksPath="$empty" reset -q --hard "$topic"
  rb_floor+=("$(elapsed git -c core.hooksPath="$trivial" rebase -q bench-base)")
  git -c core.hooksPath="$empty" reset -q --hard "$topic"
  rb_with+=("$(elapsed git -c core.hooksPath="$hooks" rebase -q bench-base)")
  "$bin" index --status >/dev/null 2>&1
  git -c core.hooksPath="$empty" reset -q --hard "$topic"
  rb_without+=("$(elapsed git -c core.hooksPath="$empty" rebase -q bench-base)")
done
git -c core.hooksPath="$empty" checkout -q "$branch"
git -c core.hooksPath="$empty" reset -q --hard "$start"
git branch -q -D bench-base bench-topic

# worktree: a new linked worktree, with every hook, then without, interleaved.
wt_with=() wt_without=()
for ((r = 0; r < runs; r++)); do
  wt_with+=("$(elapsed git -c core.hooksPath="$hooks" worktree add -q -b "bench-wt-on-$r" "$tmp/wt-on-$r")")
  (cd "$tmp/wt-on-$r" && "$bin" index --status >/dev/null 2>&1) || true
  wt_without+=("$(elapsed git -c core.hooksPath="$empty" worktree add -q -b "bench-wt-off-$r" "$tmp/wt-off-$r")")
done
for ((r = 0; r < runs; r++)); do
  git worktree remove --force "$tmp/wt-on-$r"
  git worktree remove --force "$tmp/wt-off-$r"
  git branch -q -D "bench-wt-on-$r" "bench-wt-off-$r"
done

# branch: the commit of the first measure on a topic branch 20 commits (and, by the last run,
# 20 + 2 x RUNS) ahead of the branch it left (here `origin/HEAD`), as most commits are made:
# commit-msg reads the branch's commits to name a decision once on it (docs/hooks.md). Its
# commits are loose, as a day's work is. Against the same commit with commit-msg starting us.
git update-ref refs/remotes/origin/HEAD "$start"
git -c core.hooksPath="$empty" checkout -q -b bench-branch "$start"
for ((i = 0; i < 20; i++)); do
  change "branch $i"
  git -c core.hooksPath="$empty" commit -q -m "bench branch $i"
done
"$bin" index >/dev/null 2>&1
br_with=() br_floor=()
for ((r = 0; r < runs; r++)); do
  change "branch floor $r"
  br_floor+=("$(elapsed git -c core.hooksPath="$started" commit -q -m "bench branch floor $r")")
  change "branch on $r"
  br_with+=("$(elapsed git -c core.hooksPath="$hooks" commit -q -m "bench branch commit $r")")
  "$bin" index --status >/dev/null 2>&1
done
git -c core.hooksPath="$empty" checkout -q "$branch"
git -c core.hooksPath="$empty" reset -q --hard "$start"
git branch -q -D bench-branch
git update-ref -d refs/remotes/origin/HEAD

# review: a 100-commit range, the index warm.
range="$start~100..$start"
"$bin" review "$range" --json >/dev/null 2>&1 || true
rv=() gl=()
for ((r = 0; r < runs; r++)); do
  gl+=("$(elapsed git log --name-only --format=%H "$range")")
  rv+=("$(elapsed "$bin" review "$range" --json)")
done

awk -v n="$(git rev-list --count HEAD)" -v target="$target" -v runs="$runs" \
  -v cw="$(min "${with[@]}")" -v co="$(min "${without[@]}")" -v cs="$(min "${settled[@]}")" \
  -v m="$(min "${cm[@]}")" -v p="$(min "${rp[@]}")" \
  -v rw="$(min "${rb_with[@]}")" -v ro="$(min "${rb_without[@]}")" \
  -v cf="$(min "${floor[@]}")" -v rf="$(min "${rb_floor[@]}")" -v cb="$(min "${begun[@]}")" \
  -v v="$(min "${rv[@]}")" -v g="$(min "${gl[@]}")" \
  -v ww="$(min "${wt_with[@]}")" -v wo="$(min "${wt_without[@]}")" \
  -v bw="$(min "${br_with[@]}")" -v bf="$(min "${br_floor[@]}")" '
  BEGIN {
    printf "repository: %d commits; governed file %s; best of %d interleaved runs\n", n, target, runs
    printf "commit      git commit, every hook       %8.1f ms   no hooks                   %8.1f ms   ratio %.2fx\n", cw/1e6, co/1e6, cw/co
    printf "  (then     index --status, fresh        %8.1f ms   the commit with no hooks   %8.1f ms   ratio %.2fx)\n", cs/1e6, co/1e6, cs/co
    printf "  (floor    hooks that do nothing        %8.1f ms   the commit with no hooks   %8.1f ms   ratio %.2fx)\n", cf/1e6, co/1e6, cf/co
    printf "  (floor    and commit-msg starts us     %8.1f ms   the commit with no hooks   %8.1f ms   ratio %.2fx)\n", cb/1e6, co/1e6, cb/co
    printf "  (branch   20+ commits ahead, every hook %7.1f ms   commit-msg starts us       %8.1f ms   ratio %.2fx)\n", bw/1e6, bf/1e6, bw/bf
    printf "commit-msg  the hook alone               %8.1f ms   git rev-parse HEAD         %8.1f ms   ratio %.2fx\n", m/1e6, p/1e6, m/p
    printf "rebase      20 commits, every hook       %8.1f ms   no hooks                   %8.1f ms   ratio %.2fx\n", rw/1e6, ro/1e6, rw/ro
    printf "  (floor    hooks that do nothing        %8.1f ms   the rebase with no hooks   %8.1f ms   ratio %.2fx)\n", rf/1e6, ro/1e6, rf/ro
    printf "worktree    git worktree add, every hook %8.1f ms   no hooks                   %8.1f ms   ratio %.2fx\n", ww/1e6, wo/1e6, ww/wo
    printf "review      100 commits, --json          %8.1f ms   git log --name-only        %8.1f ms   ratio %.2fx\n", v/1e6, g/1e6, v/g
  }'
