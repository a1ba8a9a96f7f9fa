//! JavaScript and TypeScript resolution as TypeScript's `bundler`/`node` resolution does it:
//! relative specifiers with their extensions (`.js` written for a `.ts` file) and `index`
//! files; the nearest `tsconfig.json`/`jsconfig.json`'s `paths` and `baseUrl` (its `extends`
//! followed, a relative path or a workspace package by name: ADR-0022, amendment 2026-12-05);
//! the workspace's own packages by their package.json `name`; any other bare specifier is a
//! package (`react`, `@scope/name`).

use super::tracked::{name, normalize, parent, Target, Tracked};
use serde_json::Value;
use std::collections::HashMap;

/// Extensions tried after a specifier without one, TypeScript's first.
const EXTENSIONS: &[&str] = &[
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json",
];

#[derive(Default)]
pub(super) struct Js {
    /// Each config file's folder and what it says.
    configs: HashMap<String, Config>,
    /// Workspace packages by name: (folder, entry candidates from package.json).
    packages: HashMap<String, (String, Vec<String>)>,
}

#[derive(Default, Clone)]
struct Config {
    /// `baseUrl`, resolved against the config that set it.
    base_url: Option<String>,
    /// `paths`: (pattern, substitutions), longest prefix first.
    paths: Vec<(String, Vec<String>)>,
    /// The folder of the config that set `paths`, which they are relative to when no
    /// `baseUrl` is set.
    paths_dir: String,
}

impl Config {
    /// The folder `paths` are relative to: `baseUrl`, else the folder of the config that set
    /// them, as TypeScript reads them.
    fn paths_base(&self) -> &str {
        self.base_url.as_deref().unwrap_or(&self.paths_dir)
    }
}

impl Js {
    pub(super) fn new(tracked: &[String], read: &dyn Fn(&str) -> Option<Vec<u8>>) -> Js {
        let mut js = Js::default();
        let outside = |path: &&String| !path.split('/').any(|p| p == "node_modules");
        // The workspace's packages first: a config may extend one of them by name.
        let mut manifests = Manifests::new();
        for path in tracked
            .iter()
            .filter(outside)
            .filter(|p| name(p) == "package.json")
        {
            let Some(json) = read(path).and_then(|b| jsonc(&b)) else {
                continue;
            };
            if let Some(pkg) = json.get("name").and_then(Value::as_str) {
                let dir = parent(path).to_string();
                js.packages
                    .insert(pkg.to_string(), (dir.clone(), entries(&json)));
                manifests.insert(pkg.to_string(), (dir, json));
            }
        }
        for path in tracked.iter().filter(outside) {
            if !matches!(name(path), "tsconfig.json" | "jsconfig.json") {
                continue;
            }
            let dir = parent(path).to_string();
            if js.configs.contains_key(&dir) && name(path) == "jsconfig.json" {
                continue;
            }
            let reader = ConfigReader {
                read,
                manifests: &manifests,
                leaf: &dir,
            };
            if let Some(config) = reader.config(path, EXTENDS_DEPTH) {
                js.configs.insert(dir, config);
            }
        }
        js
    }

    /// The config nearest `from`: its own folder's, else its parent's, up to the root.
    fn config(&self, from: &str) -> Option<&Config> {
        let mut dir = parent(from);
        loop {
            if let Some(c) = self.configs.get(dir) {
                return Some(c);
            }
            if dir.is_empty() {
                return None;
            }
            dir = parent(dir);
        }
    }
}

impl Js {
    pub(super) fn resolve(&self, tracked: &Tracked, from: &str, spec: &str) -> Target {
        // A query or fragment is no part of the file; a leading `#` is a Node subpath import
        // (`#lib/x`), which `paths` may map.
        let cut = spec
            .char_indices()
            .find(|&(i, c)| c == '?' || (c == '#' && i > 0))
            .map_or(spec.len(), |(i, _)| i);
        let spec = &spec[..cut];
        if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
            return normalize(parent(from), spec)
                .and_then(|base| file_or_index(tracked, &base))
                .map_or(Target::Unresolved, Target::File);
        }
        if spec.is_empty() || spec.starts_with('/') {
            return Target::Unresolved;
        }
        if let Some(config) = self.config(from) {
            for (pattern, substitutions) in &config.paths {
                let Some(star) = capture(pattern, spec) else {
                    continue;
                };
                for sub in substitutions {
                    let path = sub.replacen('*', star, 1);
                    // A `${configDir}` substitution is already from the root (`/…`).
                    let base = match path.strip_prefix('/') {
                        Some(rooted) => normalize("", rooted),
                        None => normalize(config.paths_base(), &path),
                    };
                    if let Some(found) = base.and_then(|base| file_or_index(tracked, &base)) {
                        return Target::File(found);
                    }
                }
            }
            if let Some(found) = config
                .base_url
                .as_deref()
                .and_then(|base| normalize(base, spec))
                .and_then(|base| file_or_index(tracked, &base))
            {
                return Target::File(found);
            }
        }
        if spec.starts_with('#') {
            // A package.json `imports` entry: not followed.
            return Target::Unresolved;
        }
        let package = package_name(spec);
        if let Some((dir, entries)) = self.packages.get(package) {
            let rest = spec[package.len()..].trim_start_matches('/');
            let found = if rest.is_empty() {
                entries
                    .iter()
                    .chain(["src/index".to_string(), "index".to_string()].iter())
                    .find_map(|e| normalize(dir, e).and_then(|b| file_or_index(tracked, &b)))
            } else {
                [rest.to_string(), format!("src/{rest}")]
                    .iter()
                    .find_map(|r| normalize(dir, r).and_then(|b| file_or_index(tracked, &b)))
            };
            if let Some(found) = found {
                return Target::File(found);
            }
        }
        Target::Package(package.strip_prefix("node:").unwrap_or(package).to_string())
    }
}

/// `base` as a file, with a TypeScript source for a `.js` written, with an extension added, or
/// as a folder's `index`.
fn file_or_index(tracked: &Tracked, base: &str) -> Option<String> {
    if tracked.is_file(base) && !base.is_empty() {
        return Some(base.to_string());
    }
    for (js, ts) in [
        (".js", ".ts"),
        (".js", ".tsx"),
        (".jsx", ".tsx"),
        (".mjs", ".mts"),
        (".cjs", ".cts"),
    ] {
        if let Some(stem) = base.strip_suffix(js) {
            let candidate = format!("{stem}{ts}");
            if tracked.is_file(&candidate) {
                return Some(candidate);
            }
        }
    }
    let with_ext = |stem: &str| {
        EXTENSIONS
            .iter()
            .map(|e| format!("{stem}{e}"))
            .find(|c| tracked.is_file(c))
    };
    if !base.is_empty() {
        if let Some(found) = with_ext(base) {
            return Some(found);
        }
    }
    let index = if base.is_empty() {
        "index".to_string()
    } else {
        format!("{base}/index")
    };
    with_ext(&index)
}

/// The package a bare specifier names: `a` of `a/b`, `@s/a` of `@s/a/b`.
fn package_name(spec: &str) -> &str {
    let mut ends = spec.match_indices('/').map(|(i, _)| i);
    let end = if spec.starts_with('@') {
        ends.nth(1)
    } else {
        ends.next()
    };
    &spec[..end.unwrap_or(spec.len())]
}

/// What `*` in `pattern` stands for in `spec` ("" for an exact pattern that matches).
fn capture<'s>(pattern: &str, spec: &'s str) -> Option<&'s str> {
    match pattern.split_once('*') {
        None => (pattern == spec).then_some(""),
        Some((prefix, suffix)) => spec
            .strip_prefix(prefix)?
            .strip_suffix(suffix)
            .filter(|_| spec.len() >= prefix.len() + suffix.len()),
    }
}

/// How many configs deep `extends` is followed (TypeScript follows every one; a chain that
/// loops stops here).
const EXTENDS_DEPTH: u32 = 8;

/// The workspace's packages by name: (folder, its package.json).
type Manifests = HashMap<String, (String, Value)>;

/// Reads tsconfig files and what they extend, in the tree.
struct ConfigReader<'r> {
    read: &'r dyn Fn(&str) -> Option<Vec<u8>>,
    manifests: &'r Manifests,
    /// The folder of the config being read for its folder's files, which a `${configDir}` in
    /// any config it extends stands for (TypeScript 5.5).
    leaf: &'r str,
}

/// TypeScript's template for the folder of the config in use, at the start of a path option.
const CONFIG_DIR: &str = "${configDir}";

impl ConfigReader<'_> {
    /// A tsconfig's `baseUrl` and `paths`, over those of the configs it `extends` (later ones
    /// over earlier ones, each option on its own, as TypeScript merges them), followed `depth`
    /// more levels.
    fn config(&self, path: &str, depth: u32) -> Option<Config> {
        let json = jsonc(&(self.read)(path)?)?;
        let dir = parent(path);
        let mut config = Config::default();
        if depth > 0 {
            let extends = match json.get("extends") {
                Some(Value::String(s)) => vec![s.clone()],
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            };
            for spec in &extends {
                let Some(base) = self.extended(dir, spec, depth - 1) else {
                    continue;
                };
                if base.base_url.is_some() {
                    config.base_url = base.base_url;
                }
                if !base.paths.is_empty() {
                    config.paths = base.paths;
                    config.paths_dir = base.paths_dir;
                }
            }
        }
        let options = json.get("compilerOptions");
        if let Some(base) = options
            .and_then(|o| o.get("baseUrl"))
            .and_then(Value::as_str)
        {
            config.base_url = match base.strip_prefix(CONFIG_DIR) {
                Some(rest) => normalize(self.leaf, &format!(".{rest}")),
                None => normalize(dir, base),
            };
        }
        if let Some(paths) = options
            .and_then(|o| o.get("paths"))
            .and_then(Value::as_object)
        {
            config.paths_dir = dir.to_string();
            config.paths = paths
                .iter()
                .map(|(k, v)| {
                    let subs = v.as_array().map_or(Vec::new(), |a| {
                        a.iter()
                            .filter_map(|s| s.as_str().and_then(|s| self.substitution(s)))
                            .collect()
                    });
                    (k.clone(), subs)
                })
                .collect();
            let prefix = |p: &str| p.split('*').next().map_or(0, str::len);
            config
                .paths
                .sort_by(|a, b| prefix(&b.0).cmp(&prefix(&a.0)).then(a.0.cmp(&b.0)));
        }
        Some(config)
    }

    /// A `paths` substitution as kept: a `${configDir}` one from the root, as `/PATH`.
    fn substitution(&self, sub: &str) -> Option<String> {
        match sub.strip_prefix(CONFIG_DIR) {
            Some(rest) => Some(format!("/{}", normalize(self.leaf, &format!(".{rest}"))?)),
            None => Some(sub.to_string()),
        }
    }

    /// The config `spec`, written in `extends` of a config in `dir`, names: a relative path
    /// (with `.json` added when there is no such file), or a package of the workspace, found by its package.json
    /// `name` as TypeScript finds one (`exports`, then the subpath with `.json` added or
    /// its folder's `tsconfig.json`; with no subpath, the `tsconfig` field, else
    /// `tsconfig.json`). A package that is no tracked workspace package is not followed.
    fn extended(&self, dir: &str, spec: &str, depth: u32) -> Option<Config> {
        if spec.starts_with("./") || spec.starts_with("../") {
            let file = normalize(dir, spec)?;
            return self.config(&file, depth).or_else(|| {
                let json = format!("{file}.json");
                (!file.ends_with(".json"))
                    .then(|| self.config(&json, depth))
                    .flatten()
            });
        }
        if spec.is_empty() || spec.starts_with('/') || spec.starts_with('.') {
            return None;
        }
        let package = package_name(spec);
        let (pkg_dir, json) = self.manifests.get(package)?;
        let sub = spec[package.len()..].trim_start_matches('/');
        let candidates: Vec<String> = match json.get("exports") {
            Some(exports) => export(exports, sub).into_iter().collect(),
            None if sub.is_empty() => json
                .get("tsconfig")
                .and_then(Value::as_str)
                .map(String::from)
                .into_iter()
                .chain(["tsconfig.json".to_string()])
                .collect(),
            None => {
                let mut c = vec![sub.to_string()];
                if !sub.ends_with(".json") {
                    c.push(format!("{sub}.json"));
                }
                c.push(format!("{sub}/tsconfig.json"));
                c
            }
        };
        candidates
            .iter()
            .filter_map(|c| normalize(pkg_dir, c))
            .find_map(|file| self.config(&file, depth))
    }
}

/// What a package.json's `exports` maps the subpath `sub` ("" for the package itself) to,
/// under the conditions TypeScript reads a config with (`types`, `require`, `node`,
/// `default`), the first that applies in the order written.
fn export(exports: &Value, sub: &str) -> Option<String> {
    let key = if sub.is_empty() {
        ".".to_string()
    } else {
        format!("./{sub}")
    };
    let target = match exports {
        Value::Object(map) if map.keys().any(|k| k.starts_with('.')) => match map.get(&key) {
            Some(t) => condition(t, None),
            None => map.iter().find_map(|(pattern, t)| {
                let star = capture(pattern, &key).filter(|_| pattern.contains('*'))?;
                condition(t, Some(star))
            }),
        },
        // `"exports": "./x.json"` or `{ "require": … }`: the package itself.
        other if sub.is_empty() => condition(other, None),
        _ => None,
    }?;
    Some(target)
}

/// The path an `exports` target gives, `*` replaced by `star`.
fn condition(target: &Value, star: Option<&str>) -> Option<String> {
    let mut at = target;
    // Nested conditions, a few deep (a hostile file cannot recurse).
    for _ in 0..4 {
        match at {
            Value::String(s) => {
                return Some(match star {
                    Some(star) => s.replace('*', star),
                    None => s.clone(),
                });
            }
            Value::Object(map) => {
                at = map.iter().find_map(|(k, v)| {
                    matches!(k.as_str(), "types" | "require" | "node" | "default").then_some(v)
                })?;
            }
            Value::Array(list) => at = list.first()?,
            _ => return None,
        }
    }
    None
}

/// A package.json's entry points, most source-like first (`source`, `types`, `module`,
/// `main`, `exports["."]`), each also under `src/` where the built folder is not tracked.
fn entries(json: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["source", "types", "typings", "module", "main"] {
        if let Some(e) = json.get(key).and_then(Value::as_str) {
            out.push(e.to_string());
        }
    }
    let dot = json.get("exports").map(|e| e.get(".").unwrap_or(e));
    match dot {
        Some(Value::String(s)) => out.push(s.clone()),
        Some(Value::Object(o)) => {
            for key in ["source", "types", "import", "default", "require"] {
                if let Some(s) = o.get(key).and_then(Value::as_str) {
                    out.push(s.to_string());
                }
            }
        }
        _ => {}
    }
    let built: Vec<String> = out
        .iter()
        .filter_map(|e| {
            let e = e.trim_start_matches("./");
            let rest = ["dist/", "lib/", "build/", "out/"]
                .iter()
                .find_map(|d| e.strip_prefix(d))?;
            let stem = rest
                .strip_suffix(".d.ts")
                .or_else(|| rest.rsplit_once('.').map(|(s, _)| s))?;
            Some(format!("src/{stem}"))
        })
        .collect();
    out.extend(built);
    out
}

/// JSON with comments and trailing commas, as tsconfig.json is written.
fn jsonc(bytes: &[u8]) -> Option<Value> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                out.extend(chars.next());
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            _ => out.push(c),
        }
    }
    serde_json::from_str(&out).ok().or_else(|| {
        // Trailing commas: drop a comma whose next non-space character closes.
        let mut cleaned = String::with_capacity(out.len());
        let chars: Vec<char> = out.chars().collect();
        let mut in_string = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == '"' && (i == 0 || chars[i - 1] != '\\') {
                in_string = !in_string;
            }
            if c == ',' && !in_string {
                let next = chars[i + 1..].iter().find(|n| !n.is_whitespace());
                if matches!(next, Some('}' | ']')) {
                    continue;
                }
            }
            cleaned.push(c);
        }
        serde_json::from_str(&cleaned).ok()
    })
}
