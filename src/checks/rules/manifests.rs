//! `forbid dependency NAME [in GLOB]` (docs/rules.md): the packages a manifest declares, each
//! at the line that declares it. Cargo.toml (every dependency table, target tables and the
//! workspace's), package.json (every dependency map), go.mod (`require`), pyproject.toml
//! (`[project]` dependencies and optional ones, `[tool.poetry]` dependency tables),
//! requirements*.txt, pom.xml (`<dependency>`) and build.gradle(.kts). Read line by line, as
//! these files are written by hand; a declaration this reading does not see is not flagged.

use super::{Files, Violation};
use crate::governs::Pattern;

/// One declared package: its line, and every name it goes by (`group:artifact` and
/// `artifact` for Maven).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub line: u32,
    pub names: Vec<String>,
}

pub(super) fn forbid_dependency(
    name: &str,
    within: Option<&str>,
    paths: &[String],
    files: &dyn Files,
) -> Vec<Violation> {
    let pattern = within.map(Pattern::new);
    let want = normal(name);
    let mut out = Vec::new();
    for path in paths {
        let file = path.rsplit('/').next().unwrap_or(path);
        if kind(file).is_none() || pattern.as_ref().is_some_and(|p| !p.matches(path)) {
            continue;
        }
        let Some(bytes) = files.read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for d in declarations(file, &text) {
            if d.names.iter().any(|n| normal(n) == want) {
                out.push(Violation {
                    path: path.clone(),
                    line: d.line,
                    target: d.names.first().cloned(),
                });
            }
        }
    }
    out
}

/// Names compared as the registries compare them: Python's `-`, `_` and `.` alike, any case.
fn normal(name: &str) -> String {
    name.to_ascii_lowercase().replace(['_', '.'], "-")
}

#[derive(Clone, Copy)]
enum Kind {
    Cargo,
    Npm,
    Go,
    Pyproject,
    Requirements,
    Pom,
    Gradle,
}

/// Whether `path` is a manifest `forbid dependency` reads.
pub fn is_manifest(path: &str) -> bool {
    kind(path.rsplit('/').next().unwrap_or(path)).is_some()
}

fn kind(file: &str) -> Option<Kind> {
    Some(match file {
        "Cargo.toml" => Kind::Cargo,
        "package.json" => Kind::Npm,
        "go.mod" => Kind::Go,
        "pyproject.toml" => Kind::Pyproject,
        "pom.xml" => Kind::Pom,
        "build.gradle" | "build.gradle.kts" => Kind::Gradle,
        f if f.starts_with("requirements") && f.ends_with(".txt") => Kind::Requirements,
        _ => return None,
    })
}

/// Every package the manifest named `file` (its file name) declares in `text`.
pub fn declarations(file: &str, text: &str) -> Vec<Declaration> {
    let lines: Vec<(u32, &str)> = text
        .split('\n')
        .enumerate()
        .map(|(i, l)| {
            (
                u32::try_from(i + 1).unwrap_or(u32::MAX),
                l.trim_end_matches('\r'),
            )
        })
        .collect();
    match kind(file) {
        Some(Kind::Cargo) => toml_tables(&lines, cargo_table),
        Some(Kind::Pyproject) => pyproject(&lines),
        Some(Kind::Npm) => npm(&lines),
        Some(Kind::Go) => go_mod(&lines),
        Some(Kind::Requirements) => lines
            .iter()
            .filter_map(|(n, l)| requirement(l).map(|name| one(*n, name)))
            .collect(),
        Some(Kind::Pom) => pom(&lines),
        Some(Kind::Gradle) => gradle(&lines),
        None => Vec::new(),
    }
}

fn one(line: u32, name: &str) -> Declaration {
    Declaration {
        line,
        names: vec![name.to_string()],
    }
}

/// A TOML table header's name (`[a.b]` → `a.b`, quotes dropped), or `None` for another line.
fn header(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = t
        .strip_prefix('[')?
        .split(']')
        .next()?
        .trim_start_matches('[');
    Some(inner.replace(['"', '\''], "").replace(' ', ""))
}

/// The key of a `key = …` line (`serde`, `"serde"`, `serde.workspace` → `serde`).
fn toml_key(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.starts_with('#') || t.starts_with('[') {
        return None;
    }
    let (key, _) = t.split_once('=')?;
    let key = key
        .trim()
        .split('.')
        .next()?
        .trim()
        .trim_matches(['"', '\'']);
    (!key.is_empty()).then_some(key)
}

/// What a Cargo table is: `Some(None)` a table of dependencies, `Some(Some(name))` the table of
/// one dependency (`[dependencies.serde]`), `None` anything else.
fn cargo_table(name: &str) -> Option<Option<String>> {
    let deps = ["dependencies", "dev-dependencies", "build-dependencies"];
    // `target.'cfg(unix)'.dependencies`, `workspace.dependencies`.
    let name = name
        .strip_prefix("workspace.")
        .or_else(|| {
            name.strip_prefix("target.")
                .and_then(|r| deps.iter().find_map(|d| r.find(d).map(|at| &r[at..])))
        })
        .unwrap_or(name);
    for d in deps {
        if name == d {
            return Some(None);
        }
        if let Some(one) = name.strip_prefix(d).and_then(|r| r.strip_prefix('.')) {
            return Some(Some(one.to_string()));
        }
    }
    None
}

/// Reads TOML tables: keys of a dependency table, and the header of a one-dependency table.
fn toml_tables(
    lines: &[(u32, &str)],
    table: impl Fn(&str) -> Option<Option<String>>,
) -> Vec<Declaration> {
    let mut out = Vec::new();
    let mut within = false;
    for (n, l) in lines {
        if let Some(h) = header(l) {
            within = false;
            match table(&h) {
                Some(None) => within = true,
                Some(Some(one_dep)) => out.push(one(*n, &one_dep)),
                None => {}
            }
            continue;
        }
        if within {
            if let Some(k) = toml_key(l) {
                out.push(one(*n, k));
            }
        }
    }
    out
}

/// pyproject.toml: `[project] dependencies = [...]`, `[project.optional-dependencies]` lists,
/// and `[tool.poetry.dependencies]` / `[tool.poetry.group.X.dependencies]` keys.
fn pyproject(lines: &[(u32, &str)]) -> Vec<Declaration> {
    let mut out = toml_tables(lines, |h| {
        let poetry = h == "tool.poetry.dependencies"
            || h == "tool.poetry.dev-dependencies"
            || (h.starts_with("tool.poetry.group.") && h.ends_with(".dependencies"));
        poetry.then_some(None)
    });
    out.retain(|d| d.names[0] != "python");
    let mut table = String::new();
    let mut in_list = false;
    for (n, l) in lines {
        if let Some(h) = header(l) {
            table = h;
            in_list = false;
            continue;
        }
        let lists = table == "project.optional-dependencies"
            || (table == "project" && toml_key(l) == Some("dependencies"))
            || (table == "project" && in_list);
        if !lists {
            continue;
        }
        let t = l.trim();
        let after = match t.split_once('=') {
            Some((_, v)) if !in_list => {
                in_list = true;
                v
            }
            _ => t,
        };
        for item in quoted(after) {
            if let Some(name) = requirement(item) {
                out.push(one(*n, name));
            }
        }
        if after.contains(']') {
            in_list = false;
        }
    }
    out.sort_by_key(|d| d.line);
    out
}

/// The strings quoted on a line.
fn quoted(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(['"', '\'']) {
        let q = &rest[start..=start];
        let body = &rest[start + 1..];
        let Some(end) = body.find(q) else { break };
        out.push(&body[..end]);
        rest = &body[end + 1..];
    }
    out
}

/// The package a requirement line names (`requests[socks]>=2 ; python_version…` → `requests`).
fn requirement(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.is_empty() || t.starts_with(['#', '-']) {
        return None;
    }
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(t.len());
    (end > 0).then(|| &t[..end])
}

/// package.json: the keys of every dependency map.
fn npm(lines: &[(u32, &str)]) -> Vec<Declaration> {
    const MAPS: [&str; 5] = [
        "\"dependencies\"",
        "\"devDependencies\"",
        "\"peerDependencies\"",
        "\"optionalDependencies\"",
        "\"bundleDependencies\"",
    ];
    let mut out = Vec::new();
    let mut within = false;
    for (n, l) in lines {
        let t = l.trim();
        if !within {
            if let Some(m) = MAPS.iter().find(|m| t.starts_with(**m)) {
                let rest = t[m.len()..]
                    .trim_start()
                    .trim_start_matches(':')
                    .trim_start();
                if let Some(body) = rest.strip_prefix('{') {
                    within = !body.contains('}');
                    // A map on one line: `"dependencies": {"a": "1", "b": "2"}`.
                    for (i, key) in quoted(body).into_iter().enumerate() {
                        if i % 2 == 0 {
                            out.push(one(*n, key));
                        }
                    }
                }
            }
            continue;
        }
        if t.starts_with('}') {
            within = false;
            continue;
        }
        // `"name": "version"`: a key, quoted at the line's start, then a colon.
        if let Some(key) = quoted(t).first().filter(|_| t.starts_with('"')) {
            let after = t.get(key.len() + 2..).unwrap_or("");
            if after.trim_start().starts_with(':') {
                out.push(one(*n, key));
            }
        }
    }
    out
}

/// go.mod: `require PATH VERSION` and each line of a `require (…)` block.
fn go_mod(lines: &[(u32, &str)]) -> Vec<Declaration> {
    let mut out = Vec::new();
    let mut block = false;
    for (n, l) in lines {
        let t = l.split("//").next().unwrap_or("").trim();
        if block {
            if t.starts_with(')') {
                block = false;
            } else if let Some(path) = t.split_whitespace().next() {
                out.push(one(*n, path));
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("require") {
            let rest = rest.trim();
            if rest.starts_with('(') {
                block = true;
            } else if let Some(path) = rest.split_whitespace().next() {
                out.push(one(*n, path));
            }
        }
    }
    out
}

/// The text of `<tag>…</tag>` on a line.
fn element<'a>(line: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = line.find(&open)? + open.len();
    let end = line[start..].find("</")? + start;
    Some(line[start..end].trim())
}

/// pom.xml: each `<dependency>`'s `groupId:artifactId` and `artifactId`, at the artifact's line.
fn pom(lines: &[(u32, &str)]) -> Vec<Declaration> {
    let mut out = Vec::new();
    let mut within = false;
    let mut group = None;
    let mut artifact: Option<(u32, String)> = None;
    for (n, l) in lines {
        if l.contains("<dependency>") {
            within = true;
            group = None;
            artifact = None;
        }
        if within {
            if let Some(g) = element(l, "groupId") {
                group = Some(g.to_string());
            }
            if let Some(a) = element(l, "artifactId") {
                artifact = Some((*n, a.to_string()));
            }
        }
        if within && l.contains("</dependency>") {
            within = false;
            if let Some((line, a)) = artifact.take() {
                let mut names = vec![a.clone()];
                if let Some(g) = group.take() {
                    names.insert(0, format!("{g}:{a}"));
                }
                out.push(Declaration { line, names });
            }
        }
    }
    out
}

/// build.gradle(.kts): `CONFIGURATION "g:a:v"`, `CONFIGURATION("g:a:v")`, `… 'g:a'`.
fn gradle(lines: &[(u32, &str)]) -> Vec<Declaration> {
    let mut out = Vec::new();
    for (n, l) in lines {
        let t = l.trim();
        let word: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let configuration = ["implementation", "api", "compile", "runtime", "classpath"]
            .iter()
            .any(|c| word.to_ascii_lowercase().ends_with(c))
            || word.ends_with("Only");
        if word.is_empty() || !configuration {
            continue;
        }
        let rest = t[word.len()..]
            .trim_start()
            .trim_start_matches('(')
            .trim_start();
        let Some(coordinate) = quoted(rest).into_iter().next() else {
            continue;
        };
        if !rest.starts_with(['"', '\'']) {
            continue;
        }
        let mut parts = coordinate.split(':');
        if let (Some(g), Some(a)) = (parts.next(), parts.next()) {
            out.push(Declaration {
                line: *n,
                names: vec![format!("{g}:{a}"), a.to_string()],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::declarations;

    fn names(file: &str, text: &str) -> Vec<(u32, String)> {
        declarations(file, text)
            .into_iter()
            .map(|d| (d.line, d.names[0].clone()))
            .collect()
    }

    #[test]
    fn cargo_every_dependency_table_at_its_line() {
        let text = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\ntokio.workspace = true\n\n[dev-dependencies]\ninsta = \"1\"\n\n[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n\n[workspace.dependencies]\nanyhow = \"1\"\n\n[build-dependencies.cc]\nversion = \"1\"\n";
        assert_eq!(
            names("Cargo.toml", text),
            vec![
                (5, "serde".into()),
                (6, "tokio".into()),
                (9, "insta".into()),
                (12, "libc".into()),
                (15, "anyhow".into()),
                (17, "cc".into())
            ]
        );
    }

    #[test]
    fn package_json_every_map_not_scripts() {
        let text = "{\n  \"name\": \"web\",\n  \"scripts\": {\n    \"moment\": \"node x\"\n  },\n  \"dependencies\": {\n    \"moment\": \"^2\",\n    \"@scope/pkg\": \"1\"\n  },\n  \"devDependencies\": {\"jest\": \"29\"}\n}\n";
        assert_eq!(
            names("package.json", text),
            vec![
                (7, "moment".into()),
                (8, "@scope/pkg".into()),
                (10, "jest".into())
            ]
        );
    }

    #[test]
    fn no_text_makes_a_manifest_reader_panic() {
        for file in [
            "package.json",
            "Cargo.toml",
            "pyproject.toml",
            "go.mod",
            "pom.xml",
            "build.gradle",
            "requirements.txt",
        ] {
            for text in [
                "{\n\"dependencies\": {\nééé\"a\": 1\n\"é\n}",
                "[dependencies]\né = 1\n[",
                "require (\n",
                "<dependency><artifactId>é",
                "implementation(\"é",
                "é[x]",
            ] {
                let _ = declarations(file, text);
            }
        }
    }

    #[test]
    fn go_python_maven_gradle() {
        assert_eq!(
            names(
                "go.mod",
                "module example.com/x\n\nrequire github.com/pkg/errors v0.9.1\nrequire (\n\tgolang.org/x/sync v0.1.0 // indirect\n)\n"
            ),
            vec![
                (3, "github.com/pkg/errors".into()),
                (5, "golang.org/x/sync".into())
            ]
        );
        assert_eq!(
            names(
                "pyproject.toml",
                "[project]\nname = \"x\"\ndependencies = [\n  \"requests>=2\",\n  \"attrs\",\n]\n[project.optional-dependencies]\ndev = [\"pytest\"]\n[tool.poetry.dependencies]\npython = \"^3.11\"\nDjango = \"4\"\n"
            ),
            vec![
                (4, "requests".into()),
                (5, "attrs".into()),
                (8, "pytest".into()),
                (11, "Django".into())
            ]
        );
        assert_eq!(
            names(
                "requirements-dev.txt",
                "# tools\nblack==23.1\n-r base.txt\nPyYAML[c]>=6\n"
            ),
            vec![(2, "black".into()), (4, "PyYAML".into())]
        );
        let pom = declarations(
            "pom.xml",
            "<project>\n<dependencies>\n  <dependency>\n    <groupId>org.slf4j</groupId>\n    <artifactId>slf4j-api</artifactId>\n  </dependency>\n</dependencies>\n</project>\n",
        );
        assert_eq!(pom[0].line, 5);
        assert_eq!(pom[0].names, vec!["org.slf4j:slf4j-api", "slf4j-api"]);
        assert_eq!(
            names(
                "build.gradle.kts",
                "dependencies {\n    implementation(\"com.google.guava:guava:32.0\")\n    testImplementation 'junit:junit:4.13'\n    // implementation \"a:b:1\"\n}\n"
            ),
            vec![(2, "com.google.guava:guava".into()), (3, "junit:junit".into())]
        );
    }
}
