#!/usr/bin/env bash
# Benchmark for the MCP server and `context`, every figure a ratio in this one run:
#
#   bench/mcp.sh [--commits N] [--repo DIR] [--gitgit SRC] [--calls N] [--keep]
#
#   session   N (default 1,000) sequential `why PATH` tool calls over one `context-graph mcp`
#             session (bench/mcp-calls.py, JSON-RPC lines by hand), against N
#             `context-graph why PATH --json` processes (target 0.2x); the server's resident
#             memory after the calls (target on git/git: 64 MiB);
#   context   `context-graph context PATH --budget 2000` with the index warm, against
#             `git rev-parse HEAD` (target 3x).
#
# The repository: a generated N-commit history (default 20,000, bench/gen-history.sh) in a
# temporary folder; or --repo DIR as it is; or --gitgit SRC, a clone of git/git made as
# bench/gitgit.sh makes it (a few records in an untracked docs/adr/, PATH builtin/log.c).
# PATH is otherwise the first file under the first folder the first record governs.
# The index is built first, 2.2 s after the files were written (past the racy window). Best
# of RUNS (default 5) interleaved runs for `context`; the N calls and N processes are timed
# once each, after one warm-up call. BIN=path times that binary.
# Needs the Rust toolchain, git and python3.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
commits=20000
repo=
gitgit=
calls=1000
keep=0
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --commits) commits=$2; shift ;;
    --repo) repo=$(cd "$2" && pwd); shift ;;
    --gitgit) gitgit=$(cd "$2" && pwd); shift ;;
    --calls) calls=$2; shift ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,20s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
bin=${BIN:-}
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --profile dist --quiet)
  bin=$project/target/dist/context-graph
fi
tmp=$(mktemp -d)
if ((keep)); then trap 'true' EXIT; else trap 'rm -rf "$tmp"' EXIT; fi
path=
if [[ -n $gitgit ]]; then
  repo=$tmp/gitgit
  echo "cloning $gitgit..." >&2
  git clone -q --local "$gitgit" "$repo"
  mkdir -p "$repo/docs/adr"
  n=0
  for spec in "builtin/ 2024-01-01" "refs/ 2023-06-01" "t/ 2025-01-01" "Documentation/ 2022-01-01"; do
    n=$((n + 1))
    set -- $spec
    printf -- '---\ngoverns:\n  - %s\n---\n\n# %d. Decision %d\n\nStatus: Accepted\n\nDate: %s\n\n## Context\n\nThe code in `%s` needed a rule.\n\n## Decision\n\nChanges to `%s` follow the rule.\n\n## Consequences\n\nReviews check the rule.\n' \
      "$1" "$n" "$n" "$2" "$1" "$1" >"$repo/docs/adr/000$n-decision-$n.md"
  done
  path=builtin/log.c
elif [[ -z $repo ]]; then
  repo=$tmp/history
  echo "generating $commits commits with git fast-import..." >&2
  "$here/gen-history.sh" "$repo" "$commits" 300 >/dev/null
fi
((keep)) && echo "repository: $repo" >&2
if [[ -z $path ]]; then
  path=$("$bin" --root "$repo" --json --no-index 2>/dev/null |
    sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
  [[ -n $path ]] || path=.
  # An agent asks about the file it is about to edit: the first one the record governs.
  path=$(git -C "$repo" ls-files -- "$path" | sed -n 1p)
fi
# Warm means settled, as in bench/gitgit.sh and bench/index.sh: the index is built past the
# 2 s racy window of the files and folders the clone (or the generator) wrote just now. Built
# within it, the scan memo cannot vouch for those folders by their times, and every query then
# lists every folder of the tree again to compare its digest, until a rebuild (issue 17's
# freshness check): on git/git that is 10.9M instructions a `context` instead of 3.0M.
sleep 2.2
echo "building the index of $repo..." >&2
"$bin" --root "$repo" index >/dev/null 2>&1

. "$here/lib.sh"
cg=("$bin" --root "$repo")
rp=(git -C "$repo" rev-parse HEAD)

# session: N processes, then N calls over one session (each after one warm-up).
"${cg[@]}" why "$path" --json >/dev/null
t0=$EPOCHREALTIME
for ((i = 0; i < calls; i++)); do "${cg[@]}" why "$path" --json >/dev/null 2>&1; done
t1=$EPOCHREALTIME
procs=$(($(ns "$t1") - $(ns "$t0")))
read -r session rss hwm < <(python3 "$here/mcp-calls.py" "$bin" "$repo" why "{\"path\": \"$path\"}" "$calls")

# context: interleaved with git rev-parse HEAD, the index warm.
"${cg[@]}" context "$path" --budget 2000 >/dev/null
c=() g=()
for ((r = 0; r < runs; r++)); do
  g+=("$(elapsed "${rp[@]}")")
  c+=("$(elapsed "${cg[@]}" context "$path" --budget 2000)")
done

ms() { awk -v n="$1" 'BEGIN { printf "%.2f ms", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3fx", a / b }'; }
echo "repository: $(git -C "$repo" rev-list --count HEAD) commits; PATH $path; $calls calls"
printf '%-44s %14s  %-34s %s\n' "what" "context-graph" "against" "ratio"
printf '%-44s %14s  %-34s %s\n' "$calls why calls over one mcp session" "$(ms "$session")" \
  "$calls why --json processes: $(ms "$procs")" "$(ratio "$session" "$procs")"
printf '%-44s %14s\n' "one call / one process" "$(ms $((session / calls))) / $(ms $((procs / calls)))"
printf '%-44s %14s\n' "server RSS after the calls (peak)" "$((rss / 1024)) MiB ($((hwm / 1024)) MiB)"
cmin=$(min "${c[@]}") gmin=$(min "${g[@]}")
printf '%-44s %14s  %-34s %s\n' "context PATH --budget 2000 (best of $runs)" "$(ms "$cmin")" \
  "git rev-parse HEAD: $(ms "$gmin")" "$(ratio "$cmin" "$gmin")"
