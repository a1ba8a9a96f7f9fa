#!/usr/bin/env bash
# The corpus run of docs/corpora.md: `check --json --git --no-index` on each public repository
# listed there, with the configuration its section names, and a summary per repository
# (records; findings by code; every finding other than a status warning, one a line, to read by
# hand). Not run in CI: the repositories are mirrors on the measuring machine, not part of the
# project.
#
#   bench/corpora.sh [REPO-FILTER]      # e.g. bench/corpora.sh npm
#
# MIRRORS  the folder of bare mirrors, one OWNER+NAME/repo each (required)
# OUT      where the work trees and the JSON go (default /tmp/corpora)
# BIN      the binary (default target/debug/context-graph)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
MIRRORS=${MIRRORS:?bench/corpora.sh needs MIRRORS: the folder of bare mirrors, one OWNER+NAME/repo each}
OUT=${OUT:-/tmp/corpora}
BIN=${BIN:-$here/target/debug/context-graph}
filter=${1:-}
mkdir -p "$OUT"

# The configuration each repository's maintainer would write (docs/corpora.md, issue 19).
config() {
  case $1 in
  emberjs/rfcs)
    printf '[[folders]]\npath = "text"\nprefix = "RFC"\n'
    ;;
  npm/rfcs)
    printf '[[folders]]\npath = "accepted"\nprefix = "RFC"\ndefault_status = "accepted"\n\n'
    printf '[[folders]]\npath = "implemented"\nprefix = "RFC"\ndefault_status = "implemented"\n\n'
    printf '[[folders]]\npath = "withdrawn"\nprefix = "RFC"\ndefault_status = "rejected"\n'
    ;;
  bitwarden/contributing-docs)
    printf '[[folders]]\npath = "docs/architecture/adr"\n'
    ;;
  esac
}

repos=(
  GreptimeTeam/greptimedb NixOS/rfcs adr/madr alphagov/govuk-aws alphagov/whitehall
  apache/james-project jj-vcs/jj mbeacom/adrkit tensorflow/community thomvaill/log4brains
  vectordotdev/vector emberjs/rfcs npm/rfcs bitwarden/contributing-docs
  home-assistant/architecture microsoft/semantic-kernel
)

for repo in "${repos[@]}"; do
  [[ -z "$filter" || "$repo" == *"$filter"* ]] || continue
  name=${repo/\//+}
  tree=$OUT/$name
  if [[ ! -d "$tree/.git" ]]; then
    git clone -q --no-checkout "$MIRRORS/$name/repo" "$tree"
    # A mirror may lack its largest blobs: check out every file it has.
    git -C "$tree" read-tree HEAD
    git -C "$tree" checkout-index -a -f -q 2>/dev/null || true
  fi
  conf=$(config "$repo")
  if [[ -n "$conf" ]]; then
    printf '%s' "$conf" >"$tree/.context-graph.toml"
  fi
  json=$OUT/$name.json
  "$BIN" check --json --git --no-index --root "$tree" >"$json" 2>"$OUT/$name.err" || true
  jq -r --arg repo "$repo" '
    def status: .code == "status-missing" or .code == "status-unrecognised";
    "## \($repo): \(.records | length) records, \(.findings | length) findings, \(
      [.findings[] | select(status | not)] | length) other than status warnings",
    ([.findings[] | .code] | group_by(.) | map("\(.[0]) \(length)") | join(", ")
      | if . == "" then "(none)" else . end),
    (.findings[] | select(status | not) | "  \(.severity) \(.code) \(.record): \(.message)")
  ' "$json"
done
