#!/usr/bin/env bash
# The real tools as oracles of `check`'s import rules, and the rules' speed and memory, through
# the release binary on copies of real repositories (docs/rules.md "Checked against the real
# tools", docs/benchmarks.md "Rules"; ADR-0021, ADR-0022). Each part skips, saying why, when
# its copy or its tool is missing. Nothing is written to the copies: each run works on its own
# copy under a temporary folder.
#
#   RUNS=3 bench/oracles.sh        (RUNS: timed runs of each side, default 3; medians)
#
# Copies (git work trees of the repositories, at any commit):
#   EXCALIDRAW (default /tmp/q-excalidraw)  excalidraw/excalidraw, TypeScript
#   POETRY     (default /tmp/q-poetry)      python-poetry/poetry, Python
#   VECTOR     (default /tmp/r-vector)      vectordotdev/vector, a Rust workspace
# Tools, as .ci/run installs them under ~/.cache/context-graph-ci/: DEPCRUISE_JS (the
# dependency-cruiser CLI), LINT_IMPORTS (import-linter's lint-imports). The Rust part's list of
# every `use` of a crate comes from `cargo run --release --example imports -- ROOT --packages`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
repo=$(dirname "$here")
runs=${RUNS:-3}
bin=${CONTEXT_GRAPH:-$repo/target/release/context-graph}
cache=$HOME/.cache/context-graph-ci
depcruise=${DEPCRUISE_JS:-$cache/depcruise/node_modules/dependency-cruiser/bin/dependency-cruise.mjs}
lint_imports=${LINT_IMPORTS:-$cache/import-linter/bin/lint-imports}
[ -x "$bin" ] || { echo "no release binary at $bin (cargo build --release)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy of the work tree $1 at $2 (its .git too, so that git's index is the copy's own).
copy() { cp -a "$1" "$2"; }
# A record carrying the rules on stdin, staged in the copy $1 (staged is enough: the rules and
# the imports are read from git's index).
record() {
  mkdir -p "$1/docs/adr"
  { printf '# 1. Layers\n\nStatus: Accepted\nDate: 2026-12-05\n\n## Decision\n\n```context-graph\n'; cat; printf '```\n'; } \
    > "$1/docs/adr/0001-oracle-layers.md"
  git -C "$1" add docs/adr/0001-oracle-layers.md
}
# The first check: no index (deleted before each run).
cold() { rm -rf "$(git -C "$1" rev-parse --absolute-git-dir)/context-graph"; (cd "$1" && "$bin" check --json); }
# Median wall time in ms of `$runs` runs of the command.
timed() {
  local ts=() i
  for ((i = 0; i < runs; i++)); do ts+=("$(elapsed "$@")"); done
  echo $(($(median "${ts[@]}" | cut -d. -f1) / 1000000))
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# Our `rule-violated` findings of check's JSON on stdin, as `FROM -> TARGET` (with `:LINE`).
ours() {
  jq -r --arg lines "${1:-}" '.findings[] | select(.code == "rule-violated")
    | if $lines == "" then "\(.path) -> \(.target)" else "\(.path):\(.line) -> \(.target)" end' | sort -u
}
compare() { # NAME OURS THEIRS
  local o t
  o=$(wc -l < "$2"); t=$(wc -l < "$3")
  if cmp -s "$2" "$3"; then
    echo "$1: the same $o violations"
  else
    echo "$1: DIFFERENT, ours $o, theirs $t (< ours only, > theirs only):"
    diff "$2" "$3" | grep '^[<>]' | head -40
  fi
}

echo "# bench/oracles.sh, $(date -u +%F\ %H:%M) UTC, $(nproc) cores, $runs runs each, binary $(git -C "$repo" rev-parse --short HEAD)"

# ---- TypeScript: excalidraw against dependency-cruiser ----
ex=${EXCALIDRAW:-/tmp/q-excalidraw}
if [ ! -d "$ex/.git" ]; then echo "typescript: skipped, no copy at $ex (EXCALIDRAW)"
elif [ ! -f "$depcruise" ] || ! command -v node > /dev/null; then echo "typescript: skipped, no dependency-cruiser at $depcruise or no node"
else
  t=$work/excalidraw; copy "$ex" "$t"
  record "$t" <<'EOF'
forbid import packages/element/** -> packages/excalidraw/**
forbid import packages/common/** -> packages/element/**
EOF
  cat > "$work/depcruise.cjs" <<'EOF'
module.exports = {
  forbidden: [
    { name: 'element-below-editor', severity: 'error', from: { path: '^packages/element/' }, to: { path: '^packages/excalidraw/' } },
    { name: 'common-below-element', severity: 'error', from: { path: '^packages/common/' }, to: { path: '^packages/element/' } },
  ],
  options: { tsPreCompilationDeps: true, tsConfig: { fileName: 'tsconfig.json' } },
};
EOF
  dc() { (cd "$t" && node "$depcruise" --config "$work/depcruise.cjs" --output-type json packages excalidraw-app); }
  cold "$t" | ours > "$work/ts-ours.txt" || true
  dc > "$work/ts-dc.json" || true
  jq -r '.summary.violations[] | "\(.from) -> \(.to)"' "$work/ts-dc.json" | sort -u > "$work/ts-theirs.txt"
  compare "typescript (excalidraw, 2 forbid import rules vs dependency-cruiser $(node "$depcruise" --version))" "$work/ts-ours.txt" "$work/ts-theirs.txt"
  a=$(timed cold "$t"); b=$(timed dc)
  echo "typescript: first check with the rules ${a} ms, dependency-cruiser ${b} ms: $(ratio "$a" "$b")× (target ≤ 0.2×)"
fi

# ---- Python: poetry against import-linter ----
po=${POETRY:-/tmp/q-poetry}
if [ ! -d "$po/.git" ]; then echo "python: skipped, no copy at $po (POETRY)"
elif [ ! -x "$lint_imports" ]; then echo "python: skipped, no lint-imports at $lint_imports"
else
  t=$work/poetry; copy "$po" "$t"
  record "$t" <<'EOF'
forbid import src/poetry/installation/** -> src/poetry/console/**
forbid import src/poetry/puzzle/** -> src/poetry/console/**
EOF
  cat > "$work/importlinter.ini" <<'EOF'
[importlinter]
root_package = poetry

[importlinter:contract:below-console]
name = installation and puzzle sit below the console
type = forbidden
source_modules =
    poetry.installation
    poetry.puzzle
forbidden_modules =
    poetry.console
allow_indirect_imports = True
EOF
  li() { (cd "$t" && PYTHONPATH=src "$lint_imports" --no-cache --config "$work/importlinter.ini"); }
  cold "$t" | ours lines > "$work/py-ours.txt" || true
  # `-   poetry.installation.chooser -> poetry.console.exceptions (l.11, l.12)`, as files.
  li | python3 -c '
import os, re, sys
root = sys.argv[1]
def f(m):
    b = os.path.join("src", *m.split("."))
    return b + ".py" if os.path.isfile(os.path.join(root, b + ".py")) else b + "/__init__.py"
for line in sys.stdin:
    m = re.match(r"-   (\S+) -> (\S+) \((.*)\)", line.strip())
    if m:
        for n in m.group(3).split(", "):
            print(f"{f(m.group(1))}:{n[2:]} -> {f(m.group(2))}")
' "$t" | sort -u > "$work/py-theirs.txt" || true
  compare "python (poetry, forbid import rules vs import-linter's forbidden contract, direct imports)" "$work/py-ours.txt" "$work/py-theirs.txt"
  a=$(timed cold "$t"); b=$(timed li)
  echo "python: first check with the rules ${a} ms, lint-imports ${b} ms: $(ratio "$a" "$b")× (target ≤ 0.5×)"
fi

# ---- Rust: vector, every crate a `use` names is declared; peak memory of the first rule check ----
ve=${VECTOR:-/tmp/r-vector}
if [ ! -d "$ve/.git" ]; then echo "rust: skipped, no copy at $ve (VECTOR)"
else
  t=$work/vector; copy "$ve" "$t"
  if (cd "$repo" && cargo run -q --release --example imports -- "$t" --packages) > "$work/rs-edges.txt" 2> /dev/null; then
    python3 "$here/oracles-cargo.py" "$t" < "$work/rs-edges.txt"
  else
    echo "rust: the imports example did not run; the crates' check skipped"
  fi
  rss() { rm -rf "$t/.git/context-graph"; (cd "$t" && { /usr/bin/time -f %M "$bin" check --json 2>&1 > /dev/null || true; } | tail -1); }
  plain=()
  for ((i = 0; i < runs; i++)); do plain+=("$(rss)"); done
  b=$(median "${plain[@]}")
  # One crate's rule (vector-core below the vector binary), then a rule on every file.
  for rule in 'forbid import lib/vector-core/** -> src/**' 'forbid import ** -> pkg:openssl'; do
    echo "$rule" | record "$t"
    ruled=()
    for ((i = 0; i < runs; i++)); do ruled+=("$(rss)"); done
    a=$(median "${ruled[@]}")
    echo "rust: peak memory of the first check, with \`$rule\` ${a} KB, without rules ${b} KB: $(ratio "$a" "$b")× (target ≤ 1.5×)"
  done
  (cd "$t" && "$bin" check --json | jq -r '[.findings[] | select(.code == "rule-violated")] | "rust: \(length) rule-violated findings with the last rule"') || true
fi
