#!/usr/bin/env bash
# Prints the pull-request comment for the review in FILE: the hidden marker the Action finds its
# comment by, then the review, cut at a line so the whole stays within LIMIT bytes (GitHub
# refuses a comment over 65,536 characters; a byte is never more than one). A cut review says
# so and points to the job summary, which holds it whole.
set -euo pipefail

file="$1"
limit="${2:-65536}"
marker="<!-- context-graph-review -->"
note=$'\n\n*The review is cut here to fit a comment: the job summary holds all of it.*\n'

size=$(( ${#marker} + 1 + $(wc -c < "$file") ))
if [ "$size" -le "$limit" ]; then
  printf '%s\n' "$marker"
  cat "$file"
  exit 0
fi
room=$(( limit - ${#marker} - 1 - ${#note} - 16 ))
printf '%s\n' "$marker"
# Whole lines only (a line is whole UTF-8), as many as fit in `room` bytes.
LC_ALL=C awk -v room="$room" '{ n += length($0) + 1; if (n > room) exit; print }' "$file"
printf '%s' "$note"
