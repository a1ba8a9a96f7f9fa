# The timing helpers every benchmark script sources (`. "$here/lib.sh"`).
#
# Wall time in ns from bash's own clock: no `date` process inside the timed span (forking one
# there added about a millisecond to every run, flattering every ratio).
ns() { local t=${1/[.,]/}; echo $((10#$t * 1000)); }
# Wall time of one run of the command, in ns; its output and exit status are dropped.
elapsed() {
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  t1=$EPOCHREALTIME
  echo $(($(ns "$t1") - $(ns "$t0")))
}
# The smallest and the median of the numbers given.
min() { local m=$1; shift; for v; do ((v < m)) && m=$v; done; echo "$m"; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
