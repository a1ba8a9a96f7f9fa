//! What a sentence says a named path is to the decision (docs/reading.md, "Paths that are not
//! governed code"): the code the decision removes from the repository (`` `terraform/data`
//! will be split out into its own repository ``), or a shared file where the decision's part
//! is configured (`This mailet will be configured in [mailetcontainer.xml](…)`), which many
//! decisions plug into and none is about.

use crate::text::markdown::link_target;
use crate::text::path::clean_code_path;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A path as prose writes it: a code span, or a Markdown link (its text, then its target).
const PATH: &str = r"(?:`([^`\n]+)`|\[[^\]\n]*\]\(([^)\s]+)\))";

/// The paths the decision says go away: "`X` (directory) will be removed / split out / moved
/// out / retired", "remove the `X`", or were and are no more ("the tests lived in a single
/// file (`X`)"). Governed while there; once gone, the decision was carried out, and nothing is
/// missing.
pub fn removed_paths(visible: &str, folder: &str) -> Vec<String> {
    static PASSIVE: OnceLock<Regex> = OnceLock::new();
    static ACTIVE: OnceLock<Regex> = OnceLock::new();
    let passive = PASSIVE.get_or_init(|| {
        Regex::new(&format!(
            r"(?i){PATH}(?:\s+(?:directory|folder|module|package|crate|files?|project|code|service|library))?\s+(?:(?:will|shall|should|must|can|may)\s+be|is\s+being|are\s+being|is|are|has\s+been|have\s+been|was|were|gets?|got)\s+(?:(?:completely|entirely|fully|now|then|eventually)\s+)?(?:split\s+out|spun\s+out|moved\s+out|broken\s+out|carved\s+out|removed|deleted|dropped|retired|decommissioned)\b"
        ))
        .expect("regex")
    });
    let active = ACTIVE.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)\b(?:remove|removing|delete|deleting|drop|dropping|retire|retiring|decommission|decommissioning)\s+(?:the\s+)?{PATH}"
        ))
        .expect("regex")
    });
    // What was and is no more: "the tests lived in a single file (`X`)".
    static PAST: OnceLock<Regex> = OnceLock::new();
    let past = PAST.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)\b(?:lived|resided|used\s+to\s+(?:live|sit|reside))\s+(?:in|under|inside)\s+(?:[^\s`\[()]+\s+){{0,6}}?\(?{PATH}"
        ))
        .expect("regex")
    });
    let mut out = Vec::new();
    for re in [passive, active, past] {
        for c in re.captures_iter(visible) {
            let start = c.get(0).map_or(0, |m| m.start());
            if negated_before(visible, start) {
                continue;
            }
            out.extend(path_of(&c, folder));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The paths named only where something "is configured in" or "registered in" them (or
/// "register the two cases in", "mirrored in", "new entries in"; a CI configuration
/// something is "run by" or "runs in CI from"): a shared file (a pipeline's configuration, a
/// registry, a menu, a CI workflow) the decision plugs its part into. Each one every mention
/// of which is such a place is a mention, not governed code. ("Run by the worker" of
/// `src/worker.py` is the decision's own code: only a CI configuration is run by so.)
pub fn host_only_paths(visible: &str, folder: &str) -> Vec<String> {
    static HOST: OnceLock<Regex> = OnceLock::new();
    static ANY: OnceLock<Regex> = OnceLock::new();
    let host = HOST.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)\b(?:(?:configured|registered|wired(?:\s+up)?|plugged|mirrored)\s+(?:in|into|within|inside)|register\s+(?:[\w.-]+\s+){{1,5}}?(?:in|into|with)|entr(?:y|ies)\s+(?:in|into|to)|(run\s+by|runs?\s+in\s+CI\s+(?:from|in|by|via)))\s+(?:the\s+|its\s+|their\s+)?{PATH}"
        ))
        .expect("regex")
    });
    let any = ANY.get_or_init(|| Regex::new(PATH).expect("regex"));
    let mut hosted: BTreeMap<String, usize> = BTreeMap::new();
    for c in host.captures_iter(visible) {
        // The phrase's own group comes first; the path's groups follow.
        let ran = c.get(1).is_some();
        if let Some(p) = path_of_from(&c, folder, 2) {
            if !ran || is_ci_configuration(&p) {
                *hosted.entry(p).or_default() += 1;
            }
        }
    }
    if hosted.is_empty() {
        return Vec::new();
    }
    let mut named: BTreeMap<String, usize> = BTreeMap::new();
    for c in any.captures_iter(visible) {
        if let Some(p) = path_of(&c, folder) {
            *named.entry(p).or_default() += 1;
        }
    }
    hosted
        .into_iter()
        .filter(|(p, n)| named.get(p).is_some_and(|all| all <= n))
        .map(|(p, _)| p)
        .collect()
}

/// The path a match names, as the graph will meet it: a code span cleaned, a link's target made
/// root-relative; without a trailing `/`.
fn path_of(c: &regex::Captures<'_>, folder: &str) -> Option<String> {
    path_of_from(c, folder, 1)
}

/// [`path_of`] with [`PATH`]'s groups starting at group `first`.
fn path_of_from(c: &regex::Captures<'_>, folder: &str, first: usize) -> Option<String> {
    let p = if let Some(span) = c.get(first) {
        clean_code_path(span.as_str())?
    } else {
        link_target(folder, c.get(first + 1)?.as_str())?
    };
    Some(p.trim_end_matches('/').to_string())
}

/// Whether `path` configures a CI service: a GitHub Actions workflow or action, GitLab CI,
/// CircleCI, Azure Pipelines, a Jenkinsfile, Buildkite, Travis.
fn is_ci_configuration(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.starts_with(".github/workflows/")
        || path.starts_with(".github/actions/")
        || path.starts_with(".circleci/")
        || path.starts_with(".buildkite/")
        || matches!(
            name,
            ".gitlab-ci.yml" | "azure-pipelines.yml" | "Jenkinsfile" | ".travis.yml"
        )
}

/// "not", "never" or "n't" among the few words before `at`, in its sentence.
fn negated_before(text: &str, at: usize) -> bool {
    static NEG: OnceLock<Regex> = OnceLock::new();
    let neg =
        NEG.get_or_init(|| Regex::new(r"(?i)\b(?:not|never|no\s+longer)\b|n't\b").expect("regex"));
    let mut from = at.saturating_sub(40);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = &text[from..at];
    let sentence = before.rsplit(['.', '\n', ';']).next().unwrap_or(before);
    neg.is_match(sentence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_the_decision_removes() {
        let t = "The `terraform/data` directory will be split out into its own repository.\n\
                 We remove the `legacy/` folder.\nWe will not remove `keep/x.rs`.\n\
                 Remove the timeout from `src/net.rs`.";
        assert_eq!(
            removed_paths(t, "docs/adr"),
            vec!["legacy", "terraform/data"]
        );
    }

    #[test]
    fn a_shared_file_a_part_is_configured_in() {
        let t = "The limit will be configured\nin [pipeline.xml](/conf/pipeline.xml).\n\
                 The scanner is registered in `conf/listeners.xml`; see `conf/listeners.xml`.\n\
                 It is configured in `conf/own.toml`.";
        assert_eq!(
            host_only_paths(t, "docs/adr"),
            vec!["conf/own.toml", "conf/pipeline.xml"]
        );
        // A CI workflow a check runs in (jaeger's Grafana record).
        let t = "The target runs in CI from `.github/workflows/lint.yaml`.\n\
                 - Sync check: `lint` in `Makefile`, run by [`lint.yaml`](../../.github/workflows/lint.yaml)\n\
                 The generator is run by `make gen` and lives in `gen/main.go`.\n\
                 Tasks are run by [the worker](../../src/worker.py).";
        assert_eq!(
            host_only_paths(t, "docs/adr"),
            vec![".github/workflows/lint.yaml"]
        );
    }
}
