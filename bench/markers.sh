#!/usr/bin/env bash
# Benchmark for the markers (ADR-0009), every figure a ratio to git on the same tree in this one
# run:
#
#   bench/markers.sh [--files N] [--repo DIR] [--keep]
#
#   cold   the full check, `context-graph check --json --no-index` (every source file's header
#          read, no index), against `git ls-files -z | xargs -0 head -c 8192 > /dev/null`;
#   build  `context-graph index --rebuild` (the markers kept by blob id), against the same;
#   check  the full check with the index fresh (every tracked file's state compared with git's
#          index, nothing read), against `git status --porcelain`;
#   warm   `context-graph why FILE --json` with the index fresh, FILE a marked file, against
#          `git rev-parse HEAD`.
#
# Without --repo it generates a tree of N files (default 50,000) with git fast-import in a
# temporary folder: 500 folders, sizes from a few hundred bytes to 16 KiB, every 25th file
# marked (some past the 8192-byte window), 20 records in docs/adr. With --repo DIR it clones the
# repository DIR (e.g. git/git) into a temporary folder, so DIR is never touched, writes the
# same 20 records there, untracked, and commits a marker at the top of every 25th C file. Best of RUNS (default 5) interleaved runs
# each; the file system caches are warm for both sides. Needs the Rust toolchain, git and xargs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
files=50000
source_repo=
keep=0
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --files) files=$2; shift ;;
    --repo) source_repo=$(cd "$2" && pwd); shift ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
(cd "$project" && cargo build --profile dist --quiet)
bin=$project/target/dist/context-graph
tmp=$(mktemp -d)
if ((keep)); then echo "trees under: $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi
repo=$tmp/tree

records() {
  mkdir -p "$1/docs/adr"
  for ((k = 1; k <= 20; k++)); do
    printf '# %d. Decision %d\n\nStatus: Accepted\n\nDate: 2025-01-01\n\nThe code is `src/`.\n' \
      "$k" "$k" >"$1/docs/adr/$(printf %04d "$k")-decision-$k.md"
  done
}

if [[ -n $source_repo ]]; then
  echo "cloning $source_repo..." >&2
  git clone -q "$source_repo" "$repo"
  records "$repo"
  # Every 25th C file declares a decision, committed: a tree shaped like DIR's, with markers.
  (cd "$repo" && git ls-files '*.c' '*.h' | awk 'NR % 25 == 1' | while read -r f; do
    sed -i "1i // @adr $((RANDOM % 24 + 1))" "$f"
  done)
  git -C "$repo" -c user.name=Bench -c user.email=b@bench commit -q -a -m "Markers"
else
  echo "generating $files files with git fast-import..." >&2
  git init -q -b main "$repo"
  awk -v N="$files" '
  function rnd(m) { seed = (seed * 16807) % 2147483647; return int(seed / 2147483647 * m) }
  BEGIN {
    seed = 42
    line = "    let value = compute(input, options); // a line of code\n"
    printf "commit refs/heads/main\nmark :1\n"
    printf "author Bench <b@bench> 1735689600 +0000\ncommitter Bench <b@bench> 1735689600 +0000\n"
    printf "data 9\ngenerated\n"
    for (k = 1; k <= 20; k++) {
      body = sprintf("# %d. Decision %d\n\nStatus: Accepted\n\nDate: 2025-01-01\n\nThe code is `src/d%d/`.\n", k, k, k)
      printf "M 100644 inline docs/adr/%04d-decision-%d.md\ndata %d\n%s\n", k, k, length(body), body
    }
    for (i = 0; i < N; i++) {
      lines = 5 + rnd(300)
      head = sprintf("// File %d of the generated tree.\n", i)
      if (i % 25 == 0) head = head sprintf("// @adr %d\n", 1 + rnd(24))
      body = head
      for (l = 0; l < lines; l++) body = body line
      if (i % 25 == 12) body = body "// @adr 99\n"
      printf "M 100644 inline src/d%d/f%d.rs\ndata %d\n%s\n", i % 500, i, length(body), body
    }
  }' | git -C "$repo" fast-import --quiet
  git -C "$repo" reset -q --hard main
fi
git -C "$repo" update-index --refresh >/dev/null 2>&1 || true
count=$(git -C "$repo" ls-files | wc -l)
marked=$(cd "$repo" && git ls-files -z | xargs -0 grep -l '^// @adr' 2>/dev/null | wc -l) || true
file=$(cd "$repo" && git ls-files -z | xargs -0 grep -l '^// @adr [0-9]' 2>/dev/null |
  sed -n 1p) || true
[[ -n $file ]] || file=$(git -C "$repo" ls-files | sed -n 1p)

# Wall time in ns from bash's own clock: no `date` process inside the timed span.
. "$here/lib.sh"
heads() { git -C "$repo" ls-files -z | (cd "$repo" && xargs -0 head -c 8192) >/dev/null 2>&1 || true; }

cg=("$bin" --root "$repo")
rp=(git -C "$repo" rev-parse HEAD)
st=(git -C "$repo" status --porcelain)

# Warm the file system caches for both sides.
heads
"${cg[@]}" check --json --no-index >/dev/null 2>&1 || true

# cold: no index, every header read; and the first build of the index.
c=() h=() b=() h2=()
for ((r = 0; r < runs; r++)); do
  h+=("$(elapsed heads)")
  c+=("$(elapsed "${cg[@]}" check --json --no-index)")
  h2+=("$(elapsed heads)")
  b+=("$(elapsed "${cg[@]}" index --rebuild)")
done

# warm: the index fresh; wait out the 2 s window of files stored just now, and git's own.
"${cg[@]}" check --json >/dev/null 2>&1 || true
sleep 2.2
git -C "$repo" update-index --refresh >/dev/null 2>&1 || true
"${cg[@]}" check --json >/dev/null 2>&1 || true
k=() s=() w=() p=()
for ((r = 0; r < runs; r++)); do
  s+=("$(elapsed "${st[@]}")")
  k+=("$(elapsed "${cg[@]}" check --json)")
  p+=("$(elapsed "${rp[@]}")")
  w+=("$(elapsed "${cg[@]}" why "$file" --json)")
done
declared=$("${cg[@]}" why "$file" --json 2>/dev/null | grep -c '"declared_by"' || true)

awk -v n="$count" -v m="$marked" -v file="$file" -v runs="$runs" -v d="$declared" \
  -v c="$(min "${c[@]}")" -v h="$(min "${h[@]}")" -v b="$(min "${b[@]}")" -v h2="$(min "${h2[@]}")" \
  -v k="$(min "${k[@]}")" -v s="$(min "${s[@]}")" -v w="$(min "${w[@]}")" -v p="$(min "${p[@]}")" '
  BEGIN {
    printf "tree: %d tracked files, %d with a marker line; FILE %s (declared_by: %s); best of %d interleaved runs\n", n, m, file, d ? "yes" : "no", runs
    printf "cold   check --json --no-index     %8.1f ms   ls-files | xargs head -c 8192 %8.1f ms   ratio %.2fx\n", c/1e6, h/1e6, c/h
    printf "build  index --rebuild             %8.1f ms   ls-files | xargs head -c 8192 %8.1f ms   ratio %.2fx\n", b/1e6, h2/1e6, b/h2
    printf "check  check --json, index fresh   %8.1f ms   git status --porcelain        %8.1f ms   ratio %.2fx\n", k/1e6, s/1e6, k/s
    printf "warm   why FILE --json             %8.1f ms   git rev-parse HEAD            %8.1f ms   ratio %.2fx\n", w/1e6, p/1e6, w/p
  }'
