//! Phrases that make a path named in passing stand for a kind of file or an example, not the
//! one path (docs/reading.md, "Named in passing"): "the `Cargo.toml` files", "each module's
//! `build.gradle.kts`", a manifest named for dependencies, a list ending "etc.", a labelled
//! scenario, a possessive naming a part of a file. Pure text, on the masked record.

use regex::Regex;
use std::sync::OnceLock;

/// "`lib/`, `measure-app/`, etc.": paths in a list that ends "etc." (or "and so on") are
/// examples of a kind (UPLC-CAPE's list of what a workflow's path filter catches). `after` is
/// the masked text after the naming ("etc." masked as `etc_`).
pub(super) fn etc_after(after: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)^(?:\s*,\s*(?:and\s+|or\s+)?`[^`\n]*`)*\s*,?\s*(?:etc_|and\s+so\s+on\b|and\s+the\s+like\b)",
        )
        .expect("regex")
    });
    re.is_match(after)
}

/// A clause that starts with an example's label ("**Scenario 1**: a change to `lib/x.hs`",
/// "Example: …", "Use case 2: …"): what follows illustrates, it does not decide. `clause` is
/// the clause up to the naming.
pub(super) fn labelled_example(clause: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^[\s*_#>+-]*(scenario|example|use\s+case)\b[^:\n]{0,12}:").expect("regex")
    });
    re.captures(clause).map(|c| {
        let label = c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase();
        format!("an example ({label} …:)")
    })
}

/// "the `Cargo.toml` files", "every `package.json` file in …": a file name standing for every
/// file of that name, not the one at the root (mithril's release record).
pub(super) fn files_of_a_kind(after: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"(?i)^`?\s+files\b").expect("regex"));
    re.is_match(after)
}

/// "each module's `build.gradle.kts`", "every crate's own `Cargo.toml`": a file name standing
/// for the file of that name in each module, not the one at the root (thunderbird-android's
/// central-configuration record). `before` is the clause up to the naming.
pub(super) fn each_ones(before: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)(?:\b(?:each|every|any)\s+(?:[\w-]+\s+){0,2}[\w-]+(?:'|’)s\s+(?:own\s+)?|\bthe\s+individual\s+)`?$")
            .expect("regex")
    });
    re.is_match(before)
}

/// "their `go.mod`", "your `package.json`", "the user's `settings.json`": a file name standing
/// for another party's file of that name (the adopters' projects a record writes for), not this
/// repository's (crossplane's developer-experience design, "a `replace` directive in their
/// `go.mod`"). `before` is the clause up to the naming.
pub(super) fn someone_elses(before: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)(?:\b(?:their|your)|\bthe\s+users?(?:'|’)s?|\b(?:users|adopters|consumers|customers)(?:'|’))\s+(?:own\s+)?`?$")
            .expect("regex")
    });
    re.is_match(before)
}

/// A package manifest, by its file name: where a project lists its dependencies.
pub(super) fn is_manifest(bare: &str) -> bool {
    let name = bare.rsplit('/').next().unwrap_or(bare);
    matches!(
        name,
        "pyproject.toml"
            | "setup.py"
            | "setup.cfg"
            | "Pipfile"
            | "package.json"
            | "Cargo.toml"
            | "go.mod"
            | "Gemfile"
            | "pom.xml"
            | "build.gradle"
            | "build.gradle.kts"
            | "composer.json"
            | "mix.exs"
    ) || (name.starts_with("requirements") && name.ends_with(".txt"))
}

/// "add the client's dependencies to `pyproject.toml`", "the dependencies it needs (in the
/// `pyproject.toml` file)": a manifest named as where a decision's dependencies are listed is
/// a host, not its subject (notifications-api's vendored-client record; every pin bump
/// warned). `before` is the clause up to the naming.
pub(super) fn dependencies_in(before: &str) -> bool {
    let lower = before.to_ascii_lowercase();
    lower.contains("dependenc") || lower.contains("requirements")
}

/// `` `package.json`'s `scripts` section ``: a part of a file named through it, which the
/// sentence is about (an adopter's file, a field of a shared manifest). The noun it ends on.
pub(super) fn possessive(after: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)^['’]s\s+(?:(?:`[^`\n]+`|[\w-]+)\s+){0,2}?(section|field|key|entry|entries|property|properties|block|setting|settings|options?|list|array|table|scripts?)\b",
        )
        .expect("regex")
    });
    re.captures(after)
        .map(|c| c.get(1).map_or("", |m| m.as_str()).to_ascii_lowercase())
}
