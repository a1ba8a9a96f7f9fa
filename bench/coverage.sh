#!/usr/bin/env bash
# Benchmark for `coverage` (ADR-0017) over the whole history of git/git, every figure a ratio
# to git over the same commits in this one run:
#
#   bench/coverage.sh [REPO] [--keep]
#
#   warm   `context-graph coverage --last N --json` (N: every commit HEAD reaches), the index
#          fresh, against `git log --name-only --format=%H HEAD` (target 0.3x);
#   cold   the same with no index yet (the command builds it), against the same (target 1.2x).
#
# REPO (a clone or bare mirror of git/git; required) is not written to: the script clones
# it (`git clone --local`: the packs are hard links) into a temporary folder and writes four
# decision records into an untracked docs/adr/ there, governing busy folders of git/git (and
# one naming a file in prose, so that the ungoverned folders have a mention). Before timing, it
# checks that the indexed answer equals the `--no-index` one, byte for byte. Best of RUNS
# (default 3) interleaved runs each. BIN=path times that binary instead of building this one.
# `--keep` keeps the clone and prints where it is.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
src=
keep=0
runs=${RUNS:-3}
while (($#)); do
  case $1 in
    --keep) keep=1 ;;
    -h | --help) sed -n '2,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
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
if ((keep)); then trap '' EXIT; else trap 'rm -rf "$tmp"' EXIT; fi
repo=$tmp/repo
echo "cloning $src..." >&2
git clone -q --local "$src" "$repo"
((keep)) && echo "repository: $repo" >&2

# A few records governing busy folders; the last names `strbuf.c`'s code in prose only.
mkdir -p "$repo/docs/adr"
n=0
for spec in "builtin/ 2024-01-01" "refs/ 2023-06-01" "t/ 2025-01-01" "Documentation/ 2022-01-01"; do
  n=$((n + 1))
  set -- $spec
  printf -- '---\ngoverns:\n  - %s\n---\n\n# %d. Decision %d\n\nStatus: Accepted\n\nDate: %s\n\n## Context\n\nThe code in `%s` needed a rule.\n' \
    "$1" "$n" "$n" "$2" "$1" >"$repo/docs/adr/000$n-decision-$n.md"
done
printf '# 5. Strings\n\nStatus: Accepted\n\nDate: 2020-01-01\n\n## Decision\n\nEvery string goes through `strbuf_addf` in the strbuf code.\n' \
  >"$repo/docs/adr/0005-strings.md"

. "$here/lib.sh"
total=$(git -C "$repo" rev-list --count HEAD)
gl=(git -C "$repo" log --name-only --format=%H HEAD)
cg=("$bin" --root "$repo" coverage --last "$total" --json)
index_dir=$repo/.git/context-graph

# The indexed answer is the scan's.
"${cg[@]}" >"$tmp/indexed.json" 2>/dev/null
"${cg[@]}" --no-index >"$tmp/scanned.json" 2>/dev/null
if ! cmp -s "$tmp/indexed.json" "$tmp/scanned.json"; then
  echo "coverage: the indexed answer differs from the --no-index one" >&2
  exit 1
fi

# cold: no index yet (removed before each run, outside the timed span); one warm-up of git log.
"${gl[@]}" >/dev/null
c=() g=()
for ((r = 0; r < runs; r++)); do
  g+=("$(elapsed "${gl[@]}")")
  rm -rf "$index_dir"
  c+=("$(elapsed "${cg[@]}")")
done

# warm: the index fresh (wait out the 2 s racy window of files stored just now).
"${cg[@]}" >/dev/null 2>&1 || true
sleep 2.2
"${cg[@]}" >/dev/null 2>&1 || true
w=() g2=()
for ((r = 0; r < runs; r++)); do
  g2+=("$(elapsed "${gl[@]}")")
  w+=("$(elapsed "${cg[@]}")")
done

summary=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["query"]["coverage"]; print("%d commits counted, %d governed (share %s), %d ungoverned folders listed, %d uncited decisions" % (c["commits"], c["governed_commits"], c["share"], len(c["ungoverned"]), len(c["uncited"])))' "$tmp/indexed.json" 2>/dev/null || echo "")
awk -v n="$total" -v runs="$runs" -v s="$summary" \
  -v c="$(min "${c[@]}")" -v g="$(min "${g[@]}")" \
  -v w="$(min "${w[@]}")" -v g2="$(min "${g2[@]}")" '
  BEGIN {
    printf "repository: %d commits (coverage --last %d); best of %d interleaved runs\n", n, n, runs
    if (s != "") printf "answer: %s\n", s
    printf "warm  coverage --json (index fresh) %9.1f ms   git log --name-only %9.1f ms   ratio %.3fx (target 0.3x)\n", w/1e6, g2/1e6, w/g2
    printf "cold  coverage --json (no index)    %9.1f ms   git log --name-only %9.1f ms   ratio %.3fx (target 1.2x)\n", c/1e6, g/1e6, c/g
  }'
