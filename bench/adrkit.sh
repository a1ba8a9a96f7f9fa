#!/usr/bin/env bash
# adrkit's own `explain PATH --json` against our warm `why PATH --json`, on the same file of the
# same checkout of mbeacom/adrkit (issue 41):
#
#   bench/adrkit.sh [--mirror DIR] [--file PATH] [--bin PATH]
#
# DIR is a clone of mbeacom/adrkit (default /work/.mirror/mbeacom+adrkit/repo; its HEAD is
# used). adrkit is built from that commit as its README says: Bun (the version its package.json
# pins, installed from the npm registry under ~/.cache/context-graph-ci/bun when there is no
# `bun` of that version), `bun install --frozen-lockfile`, `bun run build`; the build is kept
# under ~/.cache/context-graph-ci/adrkit/COMMIT, so a second run starts at once. adrkit's CLI
# is timed as published (`node packages/cli/dist/index.js`, its artifacts run on Node) and as
# its own `adr` script runs it (`bun packages/cli/src/index.ts`), both from the top of a fresh
# clone of the commit, where ours is timed too (the index built first, and queried again after
# the 2 s racy window, so that it is warm). PATH defaults to the middle file of `git ls-files`
# (what bench/corpora-warm.sh queries). Both answers' records are compared first: the script
# stops if they differ. Median and best of RUNS (default 9) interleaved runs each. `--bin PATH`
# times that binary instead of building the dist one.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
mirror=/work/.mirror/mbeacom+adrkit/repo
file=
bin=
runs=${RUNS:-9}
while (($#)); do
  case $1 in
    --mirror) mirror=$2; shift ;;
    --file) file=$2; shift ;;
    --bin) bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    -h | --help) sed -n '2,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[[ -d $mirror ]] || { echo "$0: no clone of mbeacom/adrkit at $mirror (see --help)" >&2; exit 2; }
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
command -v node >/dev/null || { echo "$0: needs node (adrkit's CLI runs on it)" >&2; exit 2; }
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --profile dist --quiet)
  bin=${CARGO_TARGET_DIR:-$project/target}/dist/context-graph
fi
cache=$HOME/.cache/context-graph-ci
commit=$(git -C "$mirror" rev-parse HEAD)
pinned=$(git -C "$mirror" show "$commit:package.json" | sed -n 's/.*"packageManager": *"bun@\([^"]*\)".*/\1/p')
[[ -n $pinned ]] || pinned=1.3.14

# Bun, the version adrkit pins: from PATH if it is that one, else from the npm registry (the
# `bun` package ships the binary).
bun=$(command -v bun || true)
if [[ -z $bun || $("$bun" --version 2>/dev/null) != "$pinned" ]]; then
  bun=$cache/bun-$pinned/node_modules/.bin/bun
  if [[ ! -x $bun ]]; then
    echo "installing bun $pinned from the npm registry..." >&2
    npm install --prefix "$cache/bun-$pinned" --no-audit --no-fund --silent "bun@$pinned" >/dev/null ||
      { echo "$0: could not install bun $pinned with npm; adrkit cannot be built" >&2; exit 1; }
  fi
fi
# adrkit, built once per commit.
build=$cache/adrkit/$commit
cli=$build/packages/cli/dist/index.js
if [[ ! -f $cli ]]; then
  echo "building adrkit $commit with bun $("$bun" --version) (a few minutes)..." >&2
  rm -rf "$build"
  git clone -q "$mirror" "$build"
  git -C "$build" checkout -q "$commit"
  (cd "$build" && PATH=$(dirname "$bun"):$PATH "$bun" install --frozen-lockfile >/dev/null &&
    PATH=$(dirname "$bun"):$PATH "$bun" run build >/dev/null) ||
    { rm -rf "$build"; echo "$0: adrkit's build failed" >&2; exit 1; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tree=$tmp/adrkit
git clone -q "$mirror" "$tree"
git -C "$tree" checkout -q "$commit"
if [[ -z $file ]]; then
  count=$(git -C "$tree" ls-files | wc -l)
  file=$(git -C "$tree" ls-files | sed -n "$(((count + 1) / 2))p")
fi

. "$here/lib.sh"
cd "$tree"
node_cmd=(node "$cli" explain "$file" --json)
bun_cmd=("$bun" "$build/packages/cli/src/index.ts" explain "$file" --json)
cg=("$bin" --root "$tree" why "$file" --json)

# The same records, or the comparison means nothing: adrkit's ids are "0005", ours "ADR-0005".
theirs=$("${node_cmd[@]}" | sed -n 's/^ *"recordId": *"\([^"]*\)".*/\1/p' | sort -u | tr '\n' ' ')
"${cg[@]}" >/dev/null
sleep 2.2
ours=$("${cg[@]}" | sed -n '/^  "records": \[/,/^  \]/s/^      "id": *"ADR-\([^"]*\)".*/\1/p' | sort -u | tr '\n' ' ')
if [[ $theirs != "$ours" ]]; then
  echo "$0: the answers differ on $file: adrkit [$theirs], ours [$ours]" >&2
  exit 1
fi

"${node_cmd[@]}" >/dev/null
"${bun_cmd[@]}" >/dev/null
n=() b=() w=()
for ((r = 0; r < runs; r++)); do
  n+=("$(elapsed "${node_cmd[@]}")")
  b+=("$(elapsed "${bun_cmd[@]}")")
  w+=("$(elapsed "${cg[@]}")")
done
awk -v commit="${commit:0:7}" -v file="$file" -v records="$ours" -v runs="$runs" \
  -v nm="$(median "${n[@]}")" -v nb="$(min "${n[@]}")" \
  -v bm="$(median "${b[@]}")" -v bb="$(min "${b[@]}")" \
  -v wm="$(median "${w[@]}")" -v wb="$(min "${w[@]}")" '
  BEGIN {
    printf "adrkit %s, %s (records %s); median (best) of %d interleaved runs\n", commit, file, records, runs
    printf "ours   why --json, warm                  %8.1f ms (%6.1f)\n", wm/1e6, wb/1e6
    printf "adrkit explain --json, node dist         %8.1f ms (%6.1f)   ours faster %.1fx (%.1fx)\n", nm/1e6, nb/1e6, nm/wm, nb/wb
    printf "adrkit explain --json, bun src           %8.1f ms (%6.1f)   ours faster %.1fx (%.1fx)\n", bm/1e6, bb/1e6, bm/wm, bb/wb
  }'
