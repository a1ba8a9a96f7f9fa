//! The commits of a `review` range, and of the branch the commit hook reads, in the order
//! `once_per_branch` needs (docs/hooks.md): which branch each commit is on, and each after its
//! parents.

use crate::git::RangeCommit;
use crate::hooks::quiet;
use std::collections::HashMap;

/// Whether a commit's subject ends as GitHub's squash merge writes it, with the pull request's
/// number: `Add the events function (#720)`.
pub fn is_squashed_pull_request(message: &str) -> bool {
    let subject = message.lines().next().unwrap_or("").trim_end();
    subject
        .strip_suffix(')')
        .and_then(|s| s.rsplit_once("(#"))
        .is_some_and(|(before, n)| {
            !before.trim().is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Which branch each commit of a `review` range belongs to (docs/hooks.md): the commits one
/// merge of the first-parent line from `head` brought in are one branch; on that line itself, a
/// pull request squashed into one commit is one, and a run of consecutive commits by the same
/// author is one (a bot's commit between them does not end it). Returns a branch number per
/// commit.
pub fn branches(commits: &[RangeCommit], head: [u8; 20]) -> Vec<usize> {
    let at: HashMap<[u8; 20], usize> = commits.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut line = Vec::new();
    let mut next = at.get(&head).copied();
    while let Some(i) = next {
        line.push(i);
        next = commits[i].parents.first().and_then(|p| at.get(p)).copied();
    }
    let mut group = vec![usize::MAX; commits.len()];
    for &i in &line {
        group[i] = usize::MAX - 1;
    }
    let (mut count, mut run) = (0, 0);
    let mut previous: Option<usize> = None;
    for &i in line.iter().rev() {
        let c = &commits[i];
        if c.meta.is_merge {
            count += 1;
            let mut stack: Vec<usize> = c.parents[1..]
                .iter()
                .filter_map(|p| at.get(p))
                .copied()
                .collect();
            while let Some(j) = stack.pop() {
                if group[j] != usize::MAX {
                    continue;
                }
                group[j] = count;
                stack.extend(commits[j].parents.iter().filter_map(|p| at.get(p)));
            }
            group[i] = count;
            previous = None;
            continue;
        }
        // A pull request squashed into one commit was a branch of its own: the hook named the
        // decision on it afresh, whoever made the one before.
        if is_squashed_pull_request(&c.message) {
            count += 1;
            group[i] = count;
            previous = None;
            continue;
        }
        // A bot's commit between two of an author's commits does not end the author's run.
        if quiet::is_bot(&c.meta.author, &c.email) {
            count += 1;
            group[i] = count;
            continue;
        }
        let same = previous.is_some_and(|p| {
            commits[p].meta.author == c.meta.author && commits[p].email == c.email
        });
        if !same {
            count += 1;
            run = count;
        }
        group[i] = run;
        previous = Some(i);
    }
    for g in group.iter_mut().filter(|g| **g >= usize::MAX - 1) {
        count += 1;
        *g = count;
    }
    group
}

/// The commits of a `review` range (indices into `commits`) in an order where each comes after
/// its parents in the range: "the branch's first commit" by ancestry, not by date (commits a
/// rebase rewrote in one second share their committer date, and the walk may list them in any
/// order among themselves).
pub fn oldest_first(commits: &[RangeCommit]) -> Vec<usize> {
    let at: HashMap<[u8; 20], usize> = commits.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut done = vec![false; commits.len()];
    let mut out = Vec::with_capacity(commits.len());
    // The walk lists newer commits first: start from its end so ties keep its order.
    for start in (0..commits.len()).rev() {
        // Depth first, each commit emitted once its parents in the range are.
        let mut stack = vec![(start, false)];
        while let Some((i, parents_done)) = stack.pop() {
            if done[i] {
                continue;
            }
            if parents_done {
                done[i] = true;
                out.push(i);
                continue;
            }
            stack.push((i, true));
            for p in commits[i].parents.iter().rev() {
                if let Some(&j) = at.get(p) {
                    if !done[j] {
                        stack.push((j, false));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squashed_pull_requests_by_their_subject() {
        for m in [
            "Add the events function (#720)",
            "feat(fibre)!: set the default budget (#7689)\n\nBody (#1) here.",
            "fix: a (#1)",
        ] {
            assert!(is_squashed_pull_request(m), "{m}");
        }
        for m in [
            "Refresh tokens",
            "(#12)",
            "Fix (#12) in the parser",
            "Merge pull request #2183 from DependencyTrack/label-filter",
            "Fix the count (#)",
            "Fix the count (#12a)",
            "Body first\n\nthen (#12)",
        ] {
            assert!(!is_squashed_pull_request(m), "{m}");
        }
    }
}
