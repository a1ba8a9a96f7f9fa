#!/usr/bin/env bash
# Two builds' commit hooks side by side (issue 17, ADR-0008, ADR-0018): `git commit` of one
# governed file with every hook each build installs, each against its own floor (the seven
# do-nothing hooks of bench/hooks.sh whose commit-msg starts that build with `--version`):
#
#   bench/hooks-ab.sh --repo DIR [--rounds N] [--file PATH] BIN_A BIN_B
#
# Works on two copies of DIR's history, one per build (`git clone`, automatic gc and
# maintenance off, so no repack runs beside a timed commit): the index keeps what one build
# read for that build alone (ADR-0006), so two builds taking turns in one copy would each find
# the other's index and scan. Each round makes four commits (A's floor, A, B's floor, B), in
# an order that rotates from round to round; after each, `index --status` of that build waits
# for the refresh the hooks left running, outside the time taken. Prints, per build, the
# median commit and the median over the rounds of each round's commit ÷ its floor: on a shared
# machine the steadiest figure, where a best-of ratio moves with the floor's one lucky run.
# Default 101 rounds. Run it under `chrt -f 10` (as root) to stand in for a quiet machine.
# `--file PATH` commits that file (bench/rules.sh's tree: one under an import rule) rather
# than the first governed one, each change a comment line (`#` or `//`, by its extension), so
# that code stays code: a parser reading a file of invalid lines is not what a commit costs.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rounds=101
source_repo=
file=
bins=()
while (($#)); do
  case $1 in
    --repo) source_repo=$(cd "$2" && pwd); shift ;;
    --rounds) rounds=$2; shift ;;
    --file) file=$2; shift ;;
    -h | --help) sed -n '2,17s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) bins+=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")") ;;
  esac
  shift
done
[[ -n $source_repo && ${#bins[@]} -eq 2 ]] || { echo "usage: $0 --repo DIR [--rounds N] [--file PATH] BIN_A BIN_B" >&2; exit 2; }
export LC_ALL=C GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0
export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@bench GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=b@bench
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=(pre-commit prepare-commit-msg commit-msg post-commit post-merge post-checkout post-rewrite)
for k in 0 1; do
  repo=$tmp/history$k
  git clone -q "$source_repo" "$repo"
  (
    cd "$repo"
    git config user.name Bench
    git config user.email b@bench
    git config gc.auto 0
    git config maintenance.auto false
  )
done
cd "$tmp/history0"
path=$({ "${bins[0]}" --json --no-index 2>/dev/null || true; } | sed -n 's/^ *"\(.*\/\)",\{0,1\}$/\1/p' | sed -n 1p)
target=${file:-$(git ls-files -- "${path:-.}" | sed -n 1p)}
[[ -n $target ]] || { echo "$0: found no governed file" >&2; exit 1; }
comment=
if [[ -n $file ]]; then
  case $file in *.py | *.rb | *.sh | *.toml | *.yml | *.yaml) comment='# ' ;; *) comment='// ' ;; esac
fi
for k in 0 1; do
  cd "$tmp/history$k"
  hooks=$(git rev-parse --git-path hooks)
  mkdir -p "$tmp/floor$k" "$tmp/hooks$k"
  for h in "${names[@]}"; do
    printf '#!/bin/sh\n:\n' >"$tmp/floor$k/$h"
    chmod +x "$tmp/floor$k/$h"
  done
  printf '#!/bin/sh\n"%s" --version >/dev/null\n' "${bins[$k]}" >"$tmp/floor$k/commit-msg"
  "${bins[$k]}" install-hooks >/dev/null
  for h in "${names[@]}"; do cp "$hooks/$h" "$tmp/hooks$k/$h"; done
  grep -q "${bins[$k]}" "$tmp/hooks$k/commit-msg" || { echo "$0: install-hooks did not name ${bins[$k]}" >&2; exit 1; }
  "${bins[$k]}" index >/dev/null 2>&1
done
sleep 2.2
for k in 0 1; do (cd "$tmp/history$k" && "${bins[$k]}" index >/dev/null 2>&1); done
salt=$EPOCHREALTIME
runs=("floor0" "hooks0" "floor1" "hooks1")
declare -A took
for ((r = 0; r < rounds; r++)); do
  for ((q = 0; q < 4; q++)); do
    v=${runs[$(((q + r) % 4))]}
    k=${v: -1}
    cd "$tmp/history$k"
    echo "${comment}bench $v $r $salt" >>"$target"
    git add -- "$target"
    took[$v]+="$(elapsed git -c core.hooksPath="$tmp/$v" commit -q -m "bench $v $r") "
    "${bins[$k]}" index --status >/dev/null 2>&1 || true
  done
done
for k in 0 1; do
  echo "${bins[$k]} ${took[floor$k]} / ${took[hooks$k]}"
done | awk -v rounds="$rounds" -v target="$target" '
  function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  BEGIN { printf "governed file %s; %d rounds, the order rotating\n", target, rounds }
  {
    n = 0; split("", f); split("", h); split("", q); side = 0
    for (i = 2; i <= NF; i++) {
      if ($i == "/") { side = 1; continue }
      if (side) { m++; h[m] = $i } else { n++; f[n] = $i }
    }
    for (i = 1; i <= n; i++) { q[i] = h[i] / f[i]; hf[i] = h[i]; ff[i] = f[i] }
    printf "%s\n  every hook %8.2f ms   its floor %8.2f ms   median of the rounds ratios %.3fx\n", $1, median(hf, n) / 1e6, median(ff, n) / 1e6, median(q, n)
    m = 0
  }'
