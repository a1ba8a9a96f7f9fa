#!/usr/bin/env bash
# Benchmark for hostile records (ADR-0011): for each hostile input, the full check
# (`context-graph --json --no-index`) on it against the same command on an ordinary record set
# of the same byte size, both measured in this one run: best wall time of RUNS (default 3) and
# peak RSS (GNU time's maximum resident set). The goal: each ratio at most 3x in time and 2x in
# memory.
#
# The inputs: a YAML alias bomb in one record's frontmatter (each level ten aliases of the one
# before), one paragraph repeating ``supersedes `NNNN` `` (256 KiB), a `supersedes:` list of
# 80,000 ids, and 2,000 records governing the same folder.
#
# Then the floods (issue 38): one line of 256 KiB of one Markdown construct (code spans, links,
# emphasis, table cells) against the same bytes one construct a line: reading is linear in a
# record's size whatever its lines hold, so each ratio is at most 3x in time and 2x in memory.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
# BIN=path times another build (a debug one, say) instead of building the dist one.
if [ -z "${BIN:-}" ]; then cargo build --profile dist --quiet; fi
bin=${BIN:-$PWD/target/dist/context-graph}
gnutime=/usr/bin/time
[ -x "$gnutime" ] || { echo "hostile.sh needs GNU time at $gnutime" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. bench/lib.sh

# An ordinary record set of at least BYTES bytes in DIR: records as bench/check.sh writes them.
ordinary() {
  local root=$1 bytes=$2 i=0 total=0 id f
  mkdir -p "$root/docs/adr" "$root/src"
  while ((total < bytes)); do
    i=$((i + 1))
    id=$(printf '%04d' "$i")
    : >"$root/src/f$i.rs"
    f="$root/docs/adr/$id-decision-$i.md"
    printf -- '---\ntitle: Decision %d\nstatus: Accepted\ndate: 2024-%02d-%02d\n---\n# ADR-%s: Decision %d\n\nWe keep `src/f%d.rs` as it is. See ADR-%d.\n\n## Context\n\n%s\n' \
      "$i" $((i % 12 + 1)) $((i % 28 + 1)) "$id" "$i" "$i" $((i > 1 ? i - 1 : 2)) \
      "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua." \
      >"$f"
    total=$((total + $(stat -c %s "$f")))
  done
}

# The size of the records under ROOT, in bytes.
size_of() { find "$1/docs" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'; }

# Best wall time (ns) and peak RSS (KB) of the full check on ROOT: "ns kb".
measure() {
  local root=$1 best=0 t kb
  for ((r = 0; r < runs; r++)); do
    t=$(elapsed "$bin" --root "$root" --json --no-index)
    if ((best == 0 || t < best)); then best=$t; fi
  done
  kb=$("$gnutime" -f %M "$bin" --root "$root" --json --no-index 2>&1 >/dev/null | tail -1)
  echo "$best $kb"
}

make_alias() {
  local root=$1 prev=a line
  mkdir -p "$root/docs/adr" "$root/src"
  {
    printf -- '---\na: &a [x, x, x, x, x, x, x, x, x, x]\n'
    for ((l = 0; l < 9; l++)); do
      line="b$l: &b$l [*$prev"
      for ((k = 1; k < 10; k++)); do line+=", *$prev"; done
      printf '%s]\n' "$line"
      prev=b$l
    done
    printf -- 'governs: [src/]\n---\n# ADR-0001: Bomb\n\nStatus: Accepted\n'
  } >"$root/docs/adr/0001-bomb.md"
}

make_relations() {
  local root=$1
  mkdir -p "$root/docs/adr" "$root/src"
  {
    printf '# ADR-0001: Repeats\n\nStatus: Accepted\n\n'
    awk 'BEGIN { for (i = 0; i < 262144 / 18; i++) printf "supersedes `%04d` ", i % 9000 + 2; print "" }'
  } >"$root/docs/adr/0001-repeats.md"
}

make_list() {
  local root=$1
  mkdir -p "$root/docs/adr" "$root/src"
  {
    printf -- '---\nsupersedes:\n'
    awk 'BEGIN { for (i = 0; i < 80000; i++) printf "  - ADR-%05d\n", i + 2 }'
    printf -- '---\n# ADR-0001: List\n\nStatus: Accepted\n'
  } >"$root/docs/adr/0001-list.md"
}

make_overlap() {
  local root=$1 id
  mkdir -p "$root/docs/adr" "$root/src/shared"
  : >"$root/src/shared/a.rs"
  for ((i = 1; i <= 2000; i++)); do
    id=$(printf '%04d' "$i")
    printf '# ADR-%s: Shared %d\n\nStatus: Accepted\n\nThe code is `src/shared/`.\n' "$id" "$i" \
      >"$root/docs/adr/$id-shared-$i.md"
  done
}

printf '%-12s %10s %10s %10s %10s %10s %10s %8s %8s\n' input bytes ms ord_ms rss_kb ord_kb time_x mem_x ok
for kind in alias relations list overlap; do
  h=$dir/$kind-hostile o=$dir/$kind-ordinary
  "make_$kind" "$h"
  bytes=$(size_of "$h")
  ordinary "$o" "$bytes"
  read -r ht hk < <(measure "$h")
  read -r ot ok < <(measure "$o")
  awk -v k="$kind" -v b="$bytes" -v ht="$ht" -v ot="$ot" -v hk="$hk" -v ok="$ok" 'BEGIN {
    tx = ht / ot; mx = hk / ok
    printf "%-12s %10d %10.1f %10.1f %10d %10d %9.2fx %9.2fx %8s\n", k, b, ht / 1e6, ot / 1e6, hk, ok, tx, mx,
      (tx <= 3 && mx <= 2) ? "yes" : "NO" }'
done

# A record of 256 KiB (FLOOD_BYTES) holding UNIT again and again, on one line (LAYOUT=line) or
# one a line (LAYOUT=lines); a table's rows follow a header and its rule.
flood_bytes=${FLOOD_BYTES:-262144}
make_flood() {
  local root=$1 unit=$2 layout=$3 head=""
  mkdir -p "$root/docs/adr" "$root/src"
  if [[ $unit == "|"* ]]; then head='| a | b |\n|---|---|\n'; fi
  {
    printf '# ADR-0001: Flood\n\nStatus: Accepted\n\n%b' "$head"
    awk -v u="$unit" -v sep="$([ "$layout" = line ] && echo ' ' || echo '\n')" -v n="$flood_bytes" \
      'BEGIN { k = int(n / (length(u) + 1)); for (i = 0; i < k; i++) printf "%s%s", u, sep; print "" }'
  } >"$root/docs/adr/0001-flood.md"
}

echo
printf '%-12s %10s %10s %10s %10s %10s %10s %8s %8s\n' flood bytes ms lines_ms rss_kb lines_kb time_x mem_x ok
for kind in code links emphasis table; do
  case $kind in
    code) unit='`a`' ;;
    links) unit='[a](b.md)' ;;
    emphasis) unit='*a* _b_ **c**' ;;
    table) unit='| a | b |' ;;
  esac
  h=$dir/flood-$kind-line o=$dir/flood-$kind-lines
  make_flood "$h" "$unit" line
  make_flood "$o" "$unit" lines
  bytes=$(size_of "$h")
  read -r ht hk < <(measure "$h")
  read -r ot ok < <(measure "$o")
  awk -v k="$kind" -v b="$bytes" -v ht="$ht" -v ot="$ot" -v hk="$hk" -v ok="$ok" 'BEGIN {
    tx = ht / ot; mx = hk / ok
    printf "%-12s %10d %10.1f %10.1f %10d %10d %9.2fx %9.2fx %8s\n", k, b, ht / 1e6, ot / 1e6, hk, ok, tx, mx,
      (tx <= 3 && mx <= 2) ? "yes" : "NO" }'
done
