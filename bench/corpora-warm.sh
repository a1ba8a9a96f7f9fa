#!/usr/bin/env bash
# A warm answer on every repository of docs/corpora.md (issue 41): for each one with a mirror,
# a work tree (as bench/corpora.sh makes it, with the same configuration), the index built,
# then `why FILE --json` with the index fresh, FILE the middle path of `git ls-files`; printed:
# the median of RUNS interleaved runs against `git rev-parse HEAD`'s in the same tree, their
# ratio (goal ≤ 2×), and the system calls of one warm answer (`strace -f -c`: all, and the
# folder listings, `getdents64`). Where `perf` may count, also the ratio of CPU time (the mean
# `task-clock` of RUNS runs each, `perf stat -r`): on a busy machine the wall time of both
# moves with the load, the CPU time much less. A repository without a mirror is skipped,
# saying so.
#
#   MIRRORS=/work/.mirror bench/corpora-warm.sh [REPO-FILTER]
#
# MIRRORS  the folder of bare mirrors, one OWNER+NAME/repo each (required)
# OUT      where the work trees go (default /tmp/corpora-warm; kept, so a second run reuses them)
# BIN      the binary (default: target/release/context-graph, built first)
# STATIC   1: the default binary is built as the x86_64 Linux archive links it (ADR-0015):
#          statically, at a fixed address, the functions in bench/hot-symbols.txt placed
#          together, into target/static/ (the release profile)
# BEFORE   another binary (the build before a change) measured the same way right after, on a
#          work tree of its own (its index format may differ), its row marked `(before)`
# RUNS     interleaved runs per repository (default 21)
#
# With strace, rustc and python3 there is also a floor column: bench/stat-floor.rs, built with
# `rustc -O`, starts, reads the list of the paths this answer stats (from `strace`) and stats
# each from the root; the median of RUNS runs against `git rev-parse HEAD`'s. An answer that
# checks those paths for freshness (ADR-0016) costs at least that (issue 41).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
MIRRORS=${MIRRORS:?bench/corpora-warm.sh needs MIRRORS: the folder of bare mirrors, one OWNER+NAME/repo each}
OUT=${OUT:-/tmp/corpora-warm}
RUNS=${RUNS:-21}
filter=${1:-}
if [[ -z ${BIN:-} && ${STATIC:-0} == 1 ]]; then
  # With the functions a warm answer runs placed together, as the archive links them.
  order="-C link-arg=-Wl,--symbol-ordering-file=$project/bench/hot-symbols.txt"
  order+=" -C link-arg=-Wl,--no-warn-symbol-ordering"
  (cd "$project" && RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static $order" \
    cargo build --release --quiet --target x86_64-unknown-linux-gnu --target-dir target/static)
  BIN=$project/target/static/x86_64-unknown-linux-gnu/release/context-graph
elif [[ -z ${BIN:-} ]]; then
  (cd "$project" && cargo build --release --quiet)
  BIN=$project/target/release/context-graph
fi
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
. "$here/lib.sh"
mkdir -p "$OUT"
have_strace=1
command -v strace >/dev/null || { have_strace=0; echo "strace not on PATH: no system-call counts" >&2; }
have_perf=1
perf stat -x, -e task-clock true >/dev/null 2>&1 || { have_perf=0; echo "perf cannot count here: no CPU ratio" >&2; }
# The mean CPU time in ms of RUNS runs of the command (`perf stat`'s task-clock).
cpu_ms() { perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null | awk -F, '$3 == "task-clock" { print $1 }'; }

# The same repositories and configuration as bench/corpora.sh (docs/corpora.md, issue 19).
config() {
  case $1 in
  emberjs/rfcs) printf '[[folders]]\npath = "text"\nprefix = "RFC"\n' ;;
  npm/rfcs)
    printf '[[folders]]\npath = "accepted"\nprefix = "RFC"\ndefault_status = "accepted"\n\n'
    printf '[[folders]]\npath = "implemented"\nprefix = "RFC"\ndefault_status = "implemented"\n\n'
    printf '[[folders]]\npath = "withdrawn"\nprefix = "RFC"\ndefault_status = "rejected"\n'
    ;;
  bitwarden/contributing-docs) printf '[[folders]]\npath = "docs/architecture/adr"\n' ;;
  esac
}
repos=(
  GreptimeTeam/greptimedb NixOS/rfcs adr/madr alphagov/govuk-aws alphagov/whitehall
  apache/james-project jj-vcs/jj mbeacom/adrkit tensorflow/community thomvaill/log4brains
  vectordotdev/vector emberjs/rfcs npm/rfcs bitwarden/contributing-docs
  home-assistant/architecture microsoft/semantic-kernel
)

floor_bin=
if ((have_strace)) && command -v rustc >/dev/null && command -v python3 >/dev/null; then
  floor_bin=$OUT/stat-floor
  rustc -O --edition 2021 -o "$floor_bin" "$here/stat-floor.rs" || floor_bin=
fi
[[ -n $floor_bin ]] || echo "no strace, rustc or python3: no floor column" >&2

# The root-relative paths the strace output $1 shows stat'ed (or read as links) under the
# root $2, one per line.
stated_paths() {
  python3 - "$1" "$2" <<'PY'
import os, re, sys
log, root = sys.argv[1], os.path.realpath(sys.argv[2])
call = re.compile(r'(?:newfstatat|statx|stat|lstat|readlink|access|faccessat2?)\((?:(-?\d+)<([^>]*)>, |AT_FDCWD, )?"((?:[^"\\]|\\.)*)"')
for line in open(log, errors='replace'):
    m = call.search(line)
    if not m or m.group(3) == '':
        continue
    path = m.group(3)
    if not path.startswith('/'):
        path = os.path.join(m.group(2) or os.getcwd(), path)
    path = os.path.normpath(path)
    if path == root:
        print('.')
    elif path.startswith(root + '/'):
        print(path[len(root) + 1:])
PY
}

printf '%-38s %-40s %9s %9s %7s %8s %10s %9s %9s\n' repository file "why ms" "rev ms" ratio syscalls getdents64 "cpu ratio" "floor"

# A work tree of the mirror `name` at `tree`, as bench/corpora.sh makes it.
work_tree() {
  local name=$1 tree=$2 repo=$3 conf
  if [[ ! -d "$tree/.git" ]]; then
    mkdir -p "$(dirname "$tree")"
    git clone -q --no-checkout "$MIRRORS/$name/repo" "$tree"
    # A mirror may lack its largest blobs: check out every file it has.
    git -C "$tree" read-tree HEAD
    git -C "$tree" checkout-index -a -f -q 2>/dev/null || true
  fi
  conf=$(config "$repo")
  [[ -z "$conf" ]] || printf '%s' "$conf" >"$tree/.context-graph.toml"
}

# One row: `why FILE --json` by `bin` in `tree`, warm, against `git rev-parse HEAD` there.
measure() {
  local bin=$1 tree=$2 label=$3 file=$4 wm gm calls=- listings=- cpu=- floor=-
  local cg=("$bin" --root "$tree") rp=(git -C "$tree" rev-parse HEAD)
  if ! "${cg[@]}" index >/dev/null 2>&1; then
    echo "$label: skipped, \`index\` failed: $("${cg[@]}" index 2>&1 | tail -n 1)"
    return
  fi
  # Fresh: the memo settles once past the 2 s racy window, then answers from stats alone.
  "${cg[@]}" why "$file" --json >/dev/null 2>&1 || true
  sleep 2.2
  "${cg[@]}" why "$file" --json >/dev/null 2>&1 || true
  local w=() g=() r
  for ((r = 0; r < RUNS; r++)); do
    g+=("$(elapsed "${rp[@]}")")
    w+=("$(elapsed "${cg[@]}" why "$file" --json)")
  done
  wm=$(median "${w[@]}") gm=$(median "${g[@]}")
  if ((have_strace)); then
    strace -f -c -o "$OUT/strace.txt" "${cg[@]}" why "$file" --json >/dev/null 2>&1 || true
    # Columns: % time, seconds, usecs/call, calls, [errors,] name.
    calls=$(awk '$NF == "total" { print $4 }' "$OUT/strace.txt")
    listings=$(awk '$NF == "getdents64" { print $4 }' "$OUT/strace.txt")
  fi
  if [[ -n $floor_bin ]]; then
    local f=() h=()
    strace -f -y -o "$OUT/floor.strace" "${cg[@]}" why "$file" --json >/dev/null 2>&1 || true
    stated_paths "$OUT/floor.strace" "$tree" >"$OUT/floor.paths"
    for ((r = 0; r < RUNS; r++)); do
      h+=("$(elapsed "${rp[@]}")")
      f+=("$(elapsed "$floor_bin" "$tree" "$OUT/floor.paths")")
    done
    floor=$(awk -v f="$(median "${f[@]}")" -v g="$(median "${h[@]}")" -v n="$(wc -l <"$OUT/floor.paths")" \
      'BEGIN { printf "%.2fx/%d", f / g, n }')
  fi
  if ((have_perf)); then
    local cpu_w cpu_g
    cpu_g=$(cpu_ms "${rp[@]}")
    cpu_w=$(cpu_ms "${cg[@]}" why "$file" --json)
    cpu=$(awk -v w="$cpu_w" -v g="$cpu_g" 'BEGIN { if (g > 0) printf "%.2fx", w / g; else print "-" }')
  fi
  awk -v r="$label" -v f="$file" -v w="$wm" -v g="$gm" -v c="$calls" -v l="${listings:-0}" -v u="$cpu" -v x="$floor" 'BEGIN {
    printf "%-38s %-40s %9.2f %9.2f %6.2fx %8s %10s %9s %9s\n", r, substr(f, 1, 40), w / 1e6, g / 1e6, w / g, c, l, u, x }'
}

for repo in "${repos[@]}"; do
  [[ -z "$filter" || "$repo" == *"$filter"* ]] || continue
  name=${repo/\//+}
  if [[ ! -d "$MIRRORS/$name/repo" ]]; then
    echo "$repo: skipped, no mirror at $MIRRORS/$name/repo"
    continue
  fi
  work_tree "$name" "$OUT/$name" "$repo"
  count=$(git -C "$OUT/$name" ls-files | wc -l)
  file=$(git -C "$OUT/$name" ls-files | sed -n "$(((count + 1) / 2))p")
  measure "$BIN" "$OUT/$name" "$repo" "$file"
  if [[ -n ${BEFORE:-} ]]; then
    work_tree "$name" "$OUT/before/$name" "$repo"
    measure "$BEFORE" "$OUT/before/$name" "$repo (before)" "$file"
  fi
done
