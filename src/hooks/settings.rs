//! Settings files (docs/hooks.md, ADR-0008 as amended 2026-12-07): a decision that governs a
//! file many settings share (a `renovate.json`, a chart's `values.yaml`, a `go.mod`) decides
//! some of them, and a commit that changes only others (a new package rule beside the
//! decided branch presets, a Helm value dropped beside the decided ingress values) is not
//! about it. [`names_changed`] reads what a change to such files names, [`writes_any`] whether
//! a record's text writes one of those names; `hooks::quiet::judge` puts them together
//! (`skip_other_settings`, `Quiet::OtherSettings`).

use super::echo::changed_lines;
use super::quiet::Change;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// Whether `path` is a settings file by its name: JSON, YAML, TOML, INI-like and properties
/// files, and Go's `go.mod`. Markup and code that hold settings too (XML layouts, Gradle
/// scripts, Makefiles) are not: their lines name no key this could read. Nor are CI pipelines
/// written in YAML (`.github/workflows/`, `.gitlab-ci.yml`…): their lines are steps and shell
/// scripts, a program's (jaeger's coverage gate turned off on `main` by an `if:` and a `[[ …
/// ]]` test names no key its record writes, and is what the record decides).
pub fn is_settings_file(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    const PIPELINES: &[&str] = &[
        ".github/workflows/",
        ".github/actions/",
        ".gitlab/",
        ".circleci/",
        ".buildkite/",
        ".woodpecker/",
        ".tekton/",
    ];
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    if PIPELINES
        .iter()
        .any(|p| lower.starts_with(p) || lower.contains(&format!("/{p}")))
        || name.starts_with(".gitlab-ci")
        || name.starts_with("azure-pipelines")
        || matches!(
            name,
            ".travis.yml" | ".drone.yml" | "bitbucket-pipelines.yml" | "action.yml" | "action.yaml"
        )
    {
        return false;
    }
    if name == "go.mod" || name == ".npmrc" || name == ".env" {
        return true;
    }
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    matches!(
        ext,
        "json"
            | "jsonc"
            | "json5"
            | "yaml"
            | "yml"
            | "toml"
            | "ini"
            | "cfg"
            | "conf"
            | "properties"
    )
}

/// Words too common among settings to say which setting a line is: `name`, `version`,
/// `enabled`… and the hosts of module paths.
const GENERIC: &[&str] = &[
    "name",
    "version",
    "id",
    "type",
    "description",
    "value",
    "values",
    "enabled",
    "image",
    "tag",
    "default",
    "key",
    "url",
    "path",
    "items",
    "spec",
    "metadata",
    "labels",
    "true",
    "false",
    "null",
    "com",
    "org",
    "net",
    "github",
    "gitlab",
    "www",
    "http",
    "https",
];

/// A line's key: `"key":` (JSON), `key:` or `- key:` (YAML), `[table]` (TOML, INI), `key =`
/// (TOML, INI, properties), or a module path (`go.mod`'s `require`, `replace` lines).
fn key_re() -> &'static [Regex; 5] {
    static RE: OnceLock<[Regex; 5]> = OnceLock::new();
    RE.get_or_init(|| {
        [
            r#"^"([^"]+)"\s*:"#,
            r"^-?\s*([A-Za-z_][\w.\-]*)\s*:",
            r#"^\[+\s*([\w.\-"]+)"#,
            r"^([A-Za-z_][\w.\-]*)\s*=",
            r"^(?:require|replace|module|exclude|retract)?\s*([\w.\-]+/[\w.\-/]+)(?:\s|$)",
        ]
        .map(|r| Regex::new(r).expect("settings key regex compiles"))
    })
}

/// More names than this is no other setting but a file rewritten: warned as ever, and the
/// record's text is never searched for thousands of names.
const MOST_NAMES: usize = 200;

/// Whether every change is to a settings file, names something (at most [`MOST_NAMES`]), and
/// `writes_any` (the record) writes none of those names.
pub fn other_keys(changes: &[Change], writes_any: &mut dyn FnMut(&[String]) -> bool) -> bool {
    names_changed(changes).is_some_and(|names| names.len() <= MOST_NAMES && !writes_any(&names))
}

/// The names the lines a commit changes in `changes` give, when every one is a settings file
/// and some line names something: each line's key, whole and its words (of three characters
/// or more, not [`GENERIC`]), and the quoted strings it holds. `None`: not settings files
/// alone, a side too large to read, or no name found (the rule says nothing then).
pub fn names_changed(changes: &[Change]) -> Option<Vec<String>> {
    if changes.is_empty()
        || changes
            .iter()
            .any(|c| !is_settings_file(c.path) || (c.old.is_none() && c.new.is_none()))
    {
        return None;
    }
    let mut names = BTreeSet::new();
    for c in changes {
        // A comma added after the line before a new entry changes no setting of that line.
        let mut net: BTreeMap<&[u8], i64> = BTreeMap::new();
        for (line, n) in changed_lines(c) {
            *net.entry(line.strip_suffix(b",").unwrap_or(line))
                .or_default() += n;
        }
        for (line, _) in net.into_iter().filter(|(_, n)| *n != 0) {
            names_of(&String::from_utf8_lossy(line), &mut names);
        }
    }
    (!names.is_empty()).then(|| names.into_iter().collect())
}

/// The names one trimmed line gives into `out`.
fn names_of(line: &str, out: &mut BTreeSet<String>) {
    if line.starts_with(['#', ';']) || line.starts_with("//") {
        return;
    }
    let keep = |w: &str| w.chars().count() >= 3 && !GENERIC.contains(&w.to_lowercase().as_str());
    if let Some(key) = key_re().iter().find_map(|re| {
        re.captures(line)
            .map(|c| c[1].trim_matches('"').to_string())
    }) {
        for word in key.split(['.', '-', '/', '"']) {
            if keep(word) {
                out.insert(word.to_string());
            }
        }
        if keep(&key) {
            out.insert(key);
        }
    }
    for s in line.split('"').skip(1).step_by(2) {
        if keep(s) {
            out.insert(s.to_string());
        }
    }
}

/// Whether `text` (a record's) writes one of `names`, ignoring case, each where no letter,
/// digit or `_` touches it on either side.
pub fn writes_any(text: &str, names: &[String]) -> bool {
    let text = text.to_lowercase();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    names.iter().any(|n| {
        let n = n.to_lowercase();
        text.match_indices(n.as_str()).any(|(at, _)| {
            !word(text[..at].chars().next_back()) && !word(text[at + n.len()..].chars().next())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::hooks::echo::tests::edit as change;

    #[test]
    fn a_settings_file_by_its_name() {
        for p in [
            "renovate.json",
            "charts/app/values.yaml",
            "go.mod",
            "a/b.toml",
            ".env",
        ] {
            assert!(is_settings_file(p), "{p}");
        }
        for p in [
            "src/main.go",
            "Makefile",
            "build.gradle.kts",
            "res/layout/main.xml",
        ] {
            assert!(!is_settings_file(p), "{p}");
        }
    }

    #[test]
    fn the_keys_and_quoted_strings_a_change_names() {
        let c = change(
            "renovate.json",
            "{\n  \"extends\": [\"config:base\"],\n  \"timezone\": \"UTC\"\n}\n",
            "{\n  \"extends\": [\"config:base\"],\n  \"timezone\": \"UTC\",\n  \"packageRules\": [{\n    \"matchPackageNames\": [\"spire-server\"],\n    \"groupName\": \"spire\"\n  }]\n}\n",
        );
        let names = names_changed(&[c]).unwrap();
        for n in [
            "packageRules",
            "matchPackageNames",
            "spire-server",
            "groupName",
            "spire",
        ] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
        assert!(
            !names.contains(&"extends".to_string()),
            "an unchanged line names nothing"
        );
        let yaml = change(
            "values.yaml",
            "a: 1\n",
            "a: 1\nexperimental:\n  sidecarContainers: []\n",
        );
        assert_eq!(
            names_changed(&[yaml]).unwrap(),
            vec!["experimental", "sidecarContainers"]
        );
        let gomod = change(
            "go.mod",
            "require (\n)\n",
            "require (\n\tgithub.com/cilium/ebpf v0.12.3\n)\n",
        );
        let names = names_changed(&[gomod]).unwrap();
        assert!(names.contains(&"ebpf".to_string()) && !names.contains(&"github".to_string()));
    }

    #[test]
    fn code_or_nothing_named_says_nothing() {
        let code = change("src/a.go", "x := 1\n", "x := 2\n");
        let json = change("a.json", "{}\n", "{\"id\": 1}\n");
        assert_eq!(names_changed(&[code]), None);
        assert_eq!(names_changed(&[json]), None, "only a generic key");
    }

    #[test]
    fn a_file_rewritten_is_no_other_setting() {
        let keys: String = (0..300).map(|i| format!("  \"key{i}\": true,\n")).collect();
        let rewritten = change("a.json", "{}\n", &keys);
        let one = change("a.json", "{}\n", "  \"groupName\": true,\n");
        assert!(!other_keys(&[rewritten], &mut |_| false));
        assert!(other_keys(&[one], &mut |_| false));
    }

    #[test]
    fn a_name_written_whole_in_the_record() {
        let names = vec!["baseBranchPatterns".to_string(), "spire".to_string()];
        assert!(writes_any(
            "We set `baseBranchPatterns` in the preset.",
            &names
        ));
        assert!(!writes_any("Inspired by the spirelike tools.", &names));
        assert!(writes_any("The SPIRE server.", &names));
    }
}
