#!/usr/bin/env bash
# Reviews the pull request's commits (BASE_SHA...HEAD_SHA), writes the review to the job summary,
# creates or updates the one comment carrying the marker (when INPUT_COMMENT is true and this is
# a pull request), sets the output `uncited`, and fails with INPUT_STRICT=true when a touched
# decision is not cited. Uses `gh api` for the comment; a comment that cannot be written (a
# fork's read-only token) is a warning, not a failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
marker="<!-- context-graph-review -->"
work="${RUNNER_TEMP:-/tmp}/context-graph-review"
mkdir -p "$work"

if [ -z "${BASE_SHA:-}" ] || [ -z "${HEAD_SHA:-}" ]; then
  echo "context-graph: not a pull request (no base and head): nothing to review" >&2
  exit 0
fi
# The range must be in the clone: a shallow checkout gets the history it needs.
if ! git cat-file -e "$BASE_SHA^{commit}" 2> /dev/null || [ "$(git rev-parse --is-shallow-repository)" = true ]; then
  git fetch --no-tags --quiet --unshallow origin 2> /dev/null || git fetch --no-tags --quiet origin "$BASE_SHA" "$HEAD_SHA"
fi

status=0
context-graph review --strict "$BASE_SHA...$HEAD_SHA" > "$work/review.md" || status=$?
if [ "$status" -ge 2 ]; then
  echo "context-graph: review failed (exit $status)" >&2
  exit "$status"
fi
uncited=false
[ "$status" -eq 1 ] && uncited=true
echo "uncited=$uncited" >> "$GITHUB_OUTPUT"
cat "$work/review.md" >> "$GITHUB_STEP_SUMMARY"

if [ "${INPUT_COMMENT:-true}" = true ] && [ -n "${PR_NUMBER:-}" ]; then
  bash "$here/comment-body.sh" "$work/review.md" 65536 > "$work/comment.md"
  repo="$GITHUB_REPOSITORY"
  id="$(gh api --paginate "repos/$repo/issues/$PR_NUMBER/comments" \
    --jq ".[] | select(.body | startswith(\"$marker\")) | .id" 2> /dev/null | head -n 1 || true)"
  if [ -n "$id" ]; then
    gh api --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$work/comment.md" > /dev/null \
      || echo "::warning::context-graph could not update its comment $id"
  else
    gh api --method POST "repos/$repo/issues/$PR_NUMBER/comments" -F "body=@$work/comment.md" > /dev/null \
      || echo "::warning::context-graph could not comment on the pull request"
  fi
fi

if [ "${INPUT_STRICT:-false}" = true ] && [ "$uncited" = true ]; then
  echo "context-graph: this pull request touches decisions none of its commits cites (strict)" >&2
  exit 1
fi
