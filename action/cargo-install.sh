#!/usr/bin/env bash
# Builds context-graph with cargo into ~/.context-graph-cargo (which the Action caches) when the
# release has no binary for this runner, and puts it on PATH. A cached build is used as it is.
set -euo pipefail

version="${INPUT_VERSION:-latest}"
root="$HOME/.context-graph-cargo"
if [ ! -x "$root/bin/context-graph" ] && [ ! -x "$root/bin/context-graph.exe" ]; then
  args=(--locked --root "$root" --git "https://github.com/${ACTION_REPOSITORY}" context-graph)
  if [ "$version" != latest ]; then
    args+=(--tag "$version")
  fi
  cargo install "${args[@]}"
fi
echo "$root/bin" >> "$GITHUB_PATH"
