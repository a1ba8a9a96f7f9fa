#!/usr/bin/env bash
# Benchmark for import rules (ADR-0021, docs/rules.md), every figure a ratio in this one run:
#
#   bench/rules.sh [--files N] [--keep] [--bin PATH]
#
#   check   a warm `check --json` after a one-file change (a TypeScript file under a rule's
#           `from`, staged), in a repository whose record carries six `forbid import` rules
#           (a layer rule and one over every file, per language: every file's imports are read),
#           against the same warm check after the same change in a copy whose record carries
#           none: what reading the rules costs once each file's imports are kept in the index
#           by blob id (only the changed file is parsed again); target <= 1.2x;
#   commit  `git commit -m` of that change with every hook installed (the pre-commit/commit-msg
#           hook judges the staged blobs against the rules), against its floor: the same seven
#           hooks doing nothing but commit-msg starting the binary (`--version`), as in
#           bench/hooks.sh; and, for the record, the commit with no hooks; target <= 1.15x.
#
# The tree is generated (default 5,000 files): a third each TypeScript (`ts/src/`), Python
# (`py/pkg/`, packages with `__init__.py`) and Go (`go/`, one module), each in three layers,
# `domain`, `app` and `infra`, where each file imports two of the layer below (relative
# specifiers, absolute package imports, module paths). One commit. Best of RUNS (default 5)
# interleaved runs each. Needs the Rust toolchain and git. `--bin PATH` times that binary instead
# of building the release one.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
files=5000
keep=0
bin=
runs=${RUNS:-5}
while (($#)); do
  case $1 in
    --files) files=$2; shift ;;
    --keep) keep=1 ;;
    --bin) bin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    -h | --help) sed -n '2,22s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=b@bench
if [[ -z $bin ]]; then
  (cd "$project" && cargo build --release --quiet)
  bin=$project/target/release/context-graph
fi
tmp=$(mktemp -d)
if ((keep)); then echo "work folder: $tmp" >&2; else trap 'rm -rf "$tmp"' EXIT; fi
. "$here/lib.sh"

# The tree: per language and layer, `per` files; file i of a layer above `domain` imports files
# i and i+1 of the layer below.
per=$((files / 9))
layers=(domain app infra)
below() { case $1 in app) echo domain ;; infra) echo app ;; esac; }
rules=$tmp/rules
echo "generating $((per * 9)) files..." >&2
mkdir -p "$rules/docs/adr" "$rules/go"
printf 'module example.com/gen\n\ngo 1.22\n' >"$rules/go/go.mod"
mkdir -p "$rules/py/pkg"
: >"$rules/py/pkg/__init__.py"
for layer in "${layers[@]}"; do
  low=$(below "$layer" || true)
  mkdir -p "$rules/ts/src/$layer" "$rules/py/pkg/$layer"
  : >"$rules/py/pkg/$layer/__init__.py"
  for ((i = 0; i < per; i++)); do
    a=$(printf '%05d' "$i") b=$(printf '%05d' $(((i + 1) % per)))
    {
      [[ -n $low ]] && printf 'import { v as a } from "../%s/m%s";\nimport { v as b } from "../%s/m%s";\n' "$low" "$a" "$low" "$b"
      printf '// import { x } from "../infra/m%s" is a comment\nexport const v = %d;\n' "$a" "$i"
    } >"$rules/ts/src/$layer/m$a.ts"
    {
      [[ -n $low ]] && printf 'from pkg.%s import m%s\nfrom ..%s import m%s\n' "$low" "$a" "$low" "$b"
      printf '"""from pkg.infra import m%s is a docstring."""\nV = %d\n' "$a" "$i"
    } >"$rules/py/pkg/$layer/m$a.py"
    mkdir -p "$rules/go/$layer/p$a"
    {
      printf 'package p%s\n\n' "$a"
      [[ -n $low ]] && printf 'import (\n\t_ "example.com/gen/%s/p%s"\n\t_ "example.com/gen/%s/p%s"\n)\n\n' "$low" "$a" "$low" "$b"
      printf '// import "example.com/gen/infra/p%s" is a comment\nvar V = %d\n' "$a" "$i"
    } >"$rules/go/$layer/p$a/f.go"
  done
done
record() {
  printf '# 1. Layers\n\nStatus: Accepted\nDate: 2026-01-01\n\n## Decision\n\nThe domain layer never imports the layers above it.\n'
  if [[ $1 == rules ]]; then
    printf '\n```context-graph\nforbid import ts/src/domain/** -> ts/src/app/**, ts/src/infra/**\nforbid import ts/src/** -> pkg:moment\nforbid import py/pkg/domain/** -> py/pkg/app/**, py/pkg/infra/**\nforbid import py/pkg/** -> pkg:requests\nforbid import go/domain/** -> go/app/**, go/infra/**\nforbid import go/** -> go/infra/**\n```\n'
  fi
}
record rules >"$rules/docs/adr/0001-layers.md"
(cd "$rules" && git init -q && git add -A && git commit -q -m "generated tree")
plain=$tmp/plain
git clone -q "$rules" "$plain"
record none >"$plain/docs/adr/0001-layers.md"
(cd "$plain" && git commit -q -a -m "no rules")
target=ts/src/domain/m00000.ts

salt=$EPOCHREALTIME
change() { (cd "$1" && echo "// bench $2 $salt" >>"$target" && git add -- "$target"); }
check() { (cd "$1" && "$bin" check --json); }
# Both indexes built and warm, the 2 s racy window of their files over.
for r in "$rules" "$plain"; do
  (cd "$r" && "$bin" index >/dev/null 2>&1 && "$bin" check --json >/dev/null 2>&1) || true
done
sleep 2.2
for r in "$rules" "$plain"; do check "$r" >/dev/null 2>&1 || true; done
violations=$(check "$rules" 2>/dev/null | grep -c '"rule-violated"' || true)

# check: the same change in each, then the warm check, interleaved.
with=() without=()
for ((r = 0; r < runs; r++)); do
  change "$rules" "check $r"
  with+=("$(elapsed check "$rules")")
  change "$plain" "check $r"
  without+=("$(elapsed check "$plain")")
done

# commit: every hook (the rule judged on the staged file) against the floor whose commit-msg
# starts the binary, and no hooks, interleaved; each commits a new change to the ruled file.
cd "$rules"
empty=$tmp/no-hooks started=$tmp/started-hooks
mkdir -p "$empty" "$started"
for h in pre-commit prepare-commit-msg commit-msg post-commit post-merge post-checkout post-rewrite; do
  printf '#!/bin/sh\n:\n' >"$started/$h"
  chmod +x "$started/$h"
done
printf '#!/bin/sh\n"%s" --version >/dev/null\n' "$bin" >"$started/commit-msg"
"$bin" install-hooks >/dev/null
hooks=$(git rev-parse --git-path hooks)
hooks=$(cd "$(dirname "$hooks")" && pwd)/$(basename "$hooks")
"$bin" index >/dev/null 2>&1
cm_with=() cm_floor=() cm_none=()
for ((r = 0; r < runs; r++)); do
  change "$rules" "floor $r"
  cm_floor+=("$(elapsed git -c core.hooksPath="$started" commit -q -m "bench floor $r")")
  change "$rules" "on $r"
  cm_with+=("$(elapsed git -c core.hooksPath="$hooks" commit -q -m "bench commit $r")")
  "$bin" index --status >/dev/null 2>&1
  change "$rules" "off $r"
  cm_none+=("$(elapsed git -c core.hooksPath="$empty" commit -q -m "bench none $r")")
done

awk -v n="$(git ls-files | wc -l)" -v runs="$runs" -v viol="$violations" -v target="$target" \
  -v cw="$(min "${with[@]}")" -v co="$(min "${without[@]}")" \
  -v hw="$(min "${cm_with[@]}")" -v hf="$(min "${cm_floor[@]}")" -v hn="$(min "${cm_none[@]}")" '
  BEGIN {
    printf "tree: %d tracked files (TypeScript, Python, Go; 3 layers); 6 forbid import rules, %d violations; changed file %s; best of %d interleaved runs\n", n, viol, target, runs
    printf "check   warm, one file changed, rules     %8.1f ms   the same without rules      %8.1f ms   ratio %.2fx (target <= 1.2x)\n", cw/1e6, co/1e6, cw/co
    printf "commit  every hook, rule on staged file   %8.1f ms   floor: commit-msg starts us %8.1f ms   ratio %.2fx (target <= 1.15x)\n", hw/1e6, hf/1e6, hw/hf
    printf "  (no   hooks at all                      %8.1f ms   the commit with every hook  %8.1f ms   ratio %.2fx)\n", hn/1e6, hw/1e6, hw/hn
  }'
