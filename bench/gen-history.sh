#!/usr/bin/env bash
# Generates a deterministic git history for the history benchmark with `git fast-import`:
#
#   bench/gen-history.sh DIR [COMMITS] [RECORDS]
#
# creates the repository DIR (which must not exist) with COMMITS commits (default 20,000) on
# `main` reachable from HEAD, RECORDS decision records (default 300) in docs/adr governing folders
# of src/, side branches merged with --no-ff every 40 commits, record edits and renames, and
# commit messages that sometimes cite a record. Authors, dates and contents are pinned: the same
# arguments give the same commits (the same shas) on every machine. Then it checks out `main` and
# repacks with `git repack -adf`, as a clone from a server would be packed.
#
# Needs only bash, awk (any POSIX awk) and git.
set -euo pipefail
if (($# < 1)); then
  echo "usage: $0 DIR [COMMITS] [RECORDS]" >&2
  exit 2
fi
dir=$1
commits=${2:-20000}
records=${3:-300}
if [[ -e $dir ]]; then
  echo "$0: $dir exists already" >&2
  exit 2
fi
export LC_ALL=C TZ=UTC GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_TERMINAL_PROMPT=0

stream() {
  awk -v N="$commits" -v R="$records" '
function rnd(m) { seed = (seed * 16807) % 2147483647; return int(seed / 2147483647 * m) }
function ymd(secs,   z, era, doe, yoe, y, doy, mp, d, m) {
  z = int(secs / 86400) + 719468
  era = int(z / 146097); doe = z - era * 146097
  yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
  y = yoe + era * 400
  doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
  mp = int((5 * doy + 2) / 153)
  d = doy - int((153 * mp + 2) / 5) + 1
  m = mp < 10 ? mp + 3 : mp - 9
  if (m <= 2) y++
  return sprintf("%04d-%02d-%02d", y, m, d)
}
function id(k) { return sprintf("ADR-%04d", k) }
function file(path, body) {
  exists[path] = 1
  return sprintf("M 100644 inline %s\ndata %d\n%s\n", path, length(body), body)
}
# One commit on `ref` (after mark `from`, merging mark `merge` when not 0); returns its mark.
function emit(ref, from, merge, msg, changes,   who, email) {
  mark++; count++
  t += 600 + rnd(5400)
  who = authors[1 + rnd(nauth)]
  email = tolower(who); gsub(/ /, ".", email)
  printf "commit %s\nmark :%d\n", ref, mark
  printf "author %s <%s@example.com> %d +0000\n", who, email, t
  printf "committer %s <%s@example.com> %d +0000\n", who, email, t
  printf "data %d\n%s\n", length(msg), msg
  if (from) printf "from :%d\n", from
  if (merge) printf "merge :%d\n", merge
  printf "%s\n", changes
  return mark
}
function record_text(k,   s, body) {
  s = sprintf("# %d. Decision %d\n\nStatus: %s\n\n", k, k, rstatus[k])
  if (rdate[k] != "") s = s sprintf("Date: %s\n\n", rdate[k])
  s = s "## Context\n\nThe code in `" rgov[k] "` needed a rule"
  if (k > 1) s = s sprintf(" (see %s)", id(k - 1))
  s = s ".\n\n## Decision\n\nWe keep `" rgov[k] "` as it is"
  if (rgov2[k] != "") s = s " and `" rgov2[k] "` too"
  s = s ".\n"
  if (k > 1 && (k - 1) % 15 == 0) s = s sprintf("\nSupersedes %s.\n", id(k - 1))
  if (rrev[k] > 0) s = s sprintf("\n## Revisions\n\nRevised %d times.\n", rrev[k])
  return s
}
function add_record(k,   m) {
  m = k % 200
  rgov[k] = sprintf("src/mod%d/", m)
  rgov2[k] = (k % 7 == 0) ? sprintf("src/mod%d/f3.rs", (m + 50) % 200) : ""
  if (k % 20 == 0) rgov2[k] = sprintf("src/mod%d/", (m + 100) % 200)
  rstatus[k] = "Accepted"
  if (k % 11 == 0) rstatus[k] = "Proposed"
  if (k % 13 == 0) rstatus[k] = "Deprecated"
  if (k % 17 == 0) rstatus[k] = "Implemented"
  rdate[k] = (k % 10 == 3) ? "" : ymd(t + 6000)
  rpath[k] = sprintf("docs/adr/%04d-decision-%d.md", k, k)
  rrev[k] = 0
  made = k
}
# Supersedes record k with record k + 1 (when both exist).
function supersede(k) {
  rstatus[k] = "Superseded by " id(k + 1)
  return file(rpath[k], record_text(k))
}
function code_change(   n, i, m, f, path, changes) {
  changes = ""
  n = 1 + rnd(4)
  for (i = 0; i < n; i++) {
    m = (rnd(10) < 7) ? rnd(40) : rnd(200)
    f = rnd(10)
    path = sprintf("src/mod%d/f%d.rs", m, f)
    changes = changes file(path, sprintf("// module %d file %d\nfn v() -> u32 { %d }\n", m, f, count * 7 + rnd(1000)))
    lastmod = m
  }
  return changes
}
function message(what,   k, msg) {
  msg = what
  if (made > 0 && rnd(8) == 0) {
    k = 1 + rnd(made)
    msg = msg (rnd(2) ? sprintf(" (%s)", id(k)) : sprintf("\n\nKeeps to %s.", id(k)))
  }
  return msg
}
BEGIN {
  seed = 20250301
  t = 1577836800
  nauth = split("Ana Lopez,Ben Okafor,Cy Tan,Dana Kim,Eli Cohen,Fay Wong,Gus Berg,Hana Sato,Ivo Petrov,Jo Adams,Kai Meyer,Lea Rossi", authors, ",")
  changes = file("README.md", "# Generated project\n") file("docs/guide/index.md", "# Guide\n\nStart here.\n")
  for (m = 0; m < 200; m++) changes = changes file(sprintf("src/mod%d/f0.rs", m), "fn v() -> u32 { 0 }\n")
  main = emit("refs/heads/main", 0, 0, "Start the project", changes)
  side_n = 0
  next_rename = 1500
  while (count < N) {
    left = N - count
    if (made < R && count >= int(made * (N * 0.9) / R)) {
      k = made + 1
      add_record(k)
      changes = file(rpath[k], record_text(k))
      if (rgov2[k] ~ /\.rs$/ && !(rgov2[k] in exists)) changes = changes file(rgov2[k], "fn governed() {}\n")
      if (k > 1 && (k - 1) % 15 == 0) changes = changes supersede(k - 1)
      main = emit("refs/heads/main", main, 0, sprintf("Add %s: Decision %d", id(k), k), changes)
    } else if (count % 40 == 20 && left >= 6) {
      side_n++
      side = main
      split("", sidefiles)
      for (i = 0; i < 3; i++) {
        changes = code_change()
        split(changes, lines, "\n")
        for (j in lines) if (lines[j] ~ /^M 100644 inline /) sidefiles[substr(lines[j], 17)] = 1
        side = emit("refs/heads/side", side, 0, message(sprintf("Side %d: rework mod%d", side_n, lastmod)), changes)
      }
      main = emit("refs/heads/main", main, 0, message(sprintf("Tune mod%d", lastmod)), code_change())
      # The merge takes the side branch'"'"'s version of the files it changed.
      changes = ""
      for (p in sidefiles) changes = changes file(p, "// merged " p "\n")
      main = emit("refs/heads/main", main, side, sprintf("Merge branch '"'"'side-%d'"'"'", side_n), changes)
    } else if (made > 0 && rnd(50) == 0) {
      k = 1 + rnd(made)
      rrev[k]++
      main = emit("refs/heads/main", main, 0, message(sprintf("Revise %s", id(k))), file(rpath[k], record_text(k)))
    } else if (made > 0 && count >= next_rename) {
      next_rename += 3000
      k = 1 + rnd(made)
      old = rpath[k]
      rpath[k] = sprintf("docs/adr/%04d-decision-%d-r%d.md", k, k, count)
      main = emit("refs/heads/main", main, 0, sprintf("Rename the file of %s", id(k)), sprintf("R %s %s\n", old, rpath[k]))
    } else if (rnd(60) == 0) {
      path = sprintf("src/mod%d/f%d.rs", rnd(200), 1 + rnd(9))
      if (path in exists) {
        delete exists[path]
        main = emit("refs/heads/main", main, 0, message("Remove " path), sprintf("D %s\n", path))
      } else {
        main = emit("refs/heads/main", main, 0, message("Add " path), file(path, "fn new() {}\n"))
      }
    } else {
      changes = code_change()
      main = emit("refs/heads/main", main, 0, message(sprintf("Update mod%d: change %d", lastmod, count)), changes)
    }
  }
}'
}

git init -q -b main "$dir"
stream | git -C "$dir" fast-import --quiet
git -C "$dir" branch -q -D side 2>/dev/null || true
git -C "$dir" reset -q --hard main
git -C "$dir" repack -adfq
git -C "$dir" prune-packed
