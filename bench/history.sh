#!/usr/bin/env bash
# Benchmark for `--git`: the whole history walk against git's own.
#
#   bench/history.sh [--commits N] [--records R] [--keep] [--api]
#       generates a deterministic N-commit history (default 20,000) with R records (default 300)
#       with bench/gen-history.sh, in a temporary folder;
#   bench/history.sh --self
#       uses the history of the repository this script is in;
#   bench/history.sh --repo DIR
#       uses the work tree DIR as it is.
#
# Then prints, from this one run (best of RUNS interleaved runs, default 5, after a warm-up),
# the wall time of `context-graph --git --json` (with `--no-index` when the binary has it) as a
# ratio to `git log --name-only --format=%H HEAD` on the same repository, and the peak RSS of
# both (`/usr/bin/time -f %M`). `--keep` keeps the generated repository and prints where it is;
# `--api` also times the library's `history::open` and `history::walk_new` on it (builds the
# history tests in the dist profile). Runnable from any folder; needs the Rust toolchain and git.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
runs=${RUNS:-5}
commits=20000
records=300
mode=generate
repo=
keep=0
api=0
usage() { sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
while (($#)); do
  case $1 in
    --self) mode=self ;;
    --repo)
      mode=repo
      repo=$(cd "${2:?--repo needs a folder}" && pwd)
      shift
      ;;
    --commits)
      commits=${2:?--commits needs a number}
      shift
      ;;
    --records)
      records=${2:?--records needs a number}
      shift
      ;;
    --keep) keep=1 ;;
    --api) api=1 ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
  shift
done

# Git sees no user or system configuration; the repository's own still applies.
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0

(cd "$project" && cargo build --profile dist --quiet)
target_dir=$(cd "$project" && cargo metadata --format-version 1 --no-deps |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
bin=$target_dir/dist/context-graph
[[ -x $bin ]] || {
  echo "$0: no binary at $bin" >&2
  exit 1
}

tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
case $mode in
  generate)
    if ((keep)); then
      trap - EXIT
      trap 'rm -f "$tmp/rss" "$tmp/out"' EXIT
    fi
    repo=$tmp/history
    echo "generating $commits commits and $records records with git fast-import..." >&2
    t0=$(date +%s)
    "$here/gen-history.sh" "$repo" "$commits" "$records"
    echo "generated in $(($(date +%s) - t0)) s" >&2
    ;;
  self) repo=$(git -C "$project" rev-parse --show-toplevel) ;;
  repo) ;;
esac

no_index=()
if "$bin" --help 2>/dev/null | grep -q -- --no-index; then no_index=(--no-index); fi
cg=("$bin" --git --json "${no_index[@]}" --root "$repo")
gl=(git -C "$repo" log --name-only --format=%H HEAD)

# A sanity check: the binary answers with a JSON document (exit 1 only means problems found).
code=0
"${cg[@]}" >"$tmp/out" 2>/dev/null || code=$?
if ((code > 1)) || [[ $(head -c 1 "$tmp/out") != "{" ]]; then
  echo "$0: ${cg[*]} failed (exit $code)" >&2
  "${cg[@]}" >/dev/null
  exit 1
fi

# Wall time in ns from bash's own clock: no `date` process inside the timed span.
. "$here/lib.sh"
rss() { # peak RSS of one run of the command, in KiB
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$tmp/rss"
  else
    echo 0
  fi
}

"${gl[@]}" >/dev/null
"${cg[@]}" >/dev/null 2>&1 || true
best_g=0
best_c=0
for ((r = 0; r < runs; r++)); do
  g=$(elapsed "${gl[@]}")
  c=$(elapsed "${cg[@]}")
  if ((best_g == 0 || g < best_g)); then best_g=$g; fi
  if ((best_c == 0 || c < best_c)); then best_c=$c; fi
done
rss_g=$(rss "${gl[@]}")
rss_c=$(rss "${cg[@]}")

n=$(git -C "$repo" rev-list --count HEAD)
merges=$(git -C "$repo" rev-list --count --merges HEAD)
awk -v mode="$mode" -v repo="$repo" -v n="$n" -v merges="$merges" -v runs="$runs" \
  -v g="$best_g" -v c="$best_c" -v rg="$rss_g" -v rc="$rss_c" -v cgname="context-graph --git --json ${no_index[*]}" '
  BEGIN {
    printf "repository: %s, %d commits (%d merges): %s\n", mode, n, merges, repo
    printf "best of %d interleaved runs\n", runs
    printf "  %-40s %9.1f ms   peak RSS %7.1f MiB\n", "git log --name-only --format=%H HEAD", g / 1e6, rg / 1024
    printf "  %-40s %9.1f ms   peak RSS %7.1f MiB\n", cgname, c / 1e6, rc / 1024
    if (rg > 0) printf "ratio: %.2fx time, %.2fx peak RSS\n", c / g, rc / rg
    else printf "ratio: %.2fx time (no /usr/bin/time: no RSS)\n", c / g
  }'

if ((api)); then
  echo "library timings (history::open, history::walk_new, history::from_walk):"
  (cd "$project" && CG_HISTORY_TIMING_REPO=$repo cargo test --profile dist --quiet --test it \
    -- --ignored --exact history::incremental::timing_of_open_and_walk --nocapture 2>/dev/null) |
    grep -E '^(open|walk_new)\(\)' | sed 's/^/  /'
fi
if ((keep)) && [[ $mode == generate ]]; then echo "kept: $repo"; fi
