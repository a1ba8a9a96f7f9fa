#!/usr/bin/env bash
# Installs a released context-graph for this runner and puts it on PATH; sets the step output
# `fallback=true` when the release has no binary for this runner (then cargo-install.sh builds
# it). A checksum that does not match is an error, never a fallback.
#
# Reads: INPUT_VERSION (a tag or "latest"), ACTION_REPOSITORY (owner/name of this Action),
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT; CONTEXT_GRAPH_RELEASES_URL
# overrides https://github.com/OWNER/NAME/releases (the tests point it at a folder).
set -euo pipefail

version="${INPUT_VERSION:-latest}"
repo="${ACTION_REPOSITORY:-}"
base="${CONTEXT_GRAPH_RELEASES_URL:-https://github.com/${repo}/releases}"

case "${RUNNER_OS:-Linux}/${RUNNER_ARCH:-X64}" in
  Linux/X64) target=x86_64-unknown-linux-gnu; ext=tar.gz ;;
  Linux/ARM64) target=aarch64-unknown-linux-gnu; ext=tar.gz ;;
  macOS/X64) target=x86_64-apple-darwin; ext=tar.gz ;;
  macOS/ARM64) target=aarch64-apple-darwin; ext=tar.gz ;;
  Windows/X64) target=x86_64-pc-windows-msvc; ext=zip ;;
  *) target="" ;;
esac

fallback() {
  echo "context-graph: $1; building it with cargo instead" >&2
  echo "fallback=true" >> "$GITHUB_OUTPUT"
  exit 0
}

[ -n "$target" ] || fallback "no released binary for ${RUNNER_OS:-?}/${RUNNER_ARCH:-?}"
[ -n "$repo" ] || [ -n "${CONTEXT_GRAPH_RELEASES_URL:-}" ] || fallback "the Action's repository is unknown"

asset="context-graph-${target}.${ext}"
if [ "$version" = latest ]; then
  url="$base/latest/download/$asset"
else
  url="$base/download/$version/$asset"
fi

dir="${RUNNER_TEMP:-/tmp}/context-graph-install"
rm -rf "$dir"
mkdir -p "$dir/bin"
curl -fsSL --retry 3 -o "$dir/$asset" "$url" || fallback "no $asset at $url"
curl -fsSL --retry 3 -o "$dir/$asset.sha256" "$url.sha256" || fallback "no checksum for $asset"

expected="$(cut -d' ' -f1 < "$dir/$asset.sha256")"
if command -v sha256sum > /dev/null; then
  actual="$(sha256sum "$dir/$asset" | cut -d' ' -f1)"
else
  actual="$(shasum -a 256 "$dir/$asset" | cut -d' ' -f1)"
fi
if [ "$expected" != "$actual" ]; then
  echo "context-graph: the checksum of $asset does not match its .sha256 ($actual, expected $expected)" >&2
  exit 1
fi

if [ "$ext" = zip ]; then
  unzip -q -o "$dir/$asset" -d "$dir/unpacked"
else
  mkdir -p "$dir/unpacked"
  tar xzf "$dir/$asset" -C "$dir/unpacked"
fi
found="$(find "$dir/unpacked" -type f \( -name context-graph -o -name context-graph.exe \) | head -n 1)"
[ -n "$found" ] || fallback "$asset holds no context-graph binary"
cp "$found" "$dir/bin/"
chmod +x "$dir/bin/"*
echo "$dir/bin" >> "$GITHUB_PATH"
echo "fallback=false" >> "$GITHUB_OUTPUT"
"$dir/bin/$(basename "$found")" --version
