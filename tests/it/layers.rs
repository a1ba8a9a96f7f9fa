//! The library's layers (ADR-0007): each module imports only modules of lower layers (or
//! itself), so there is no import cycle and a lower layer never learns of a higher one. Read
//! from the source: every `crate::NAME` a file under `src/` writes, in code or in docs. The
//! binary (`main.rs`, `cli/`) sits above them all and reaches the library as `context_graph`.
//! And the library never prints: only the binary writes to stdout or stderr.

use std::path::{Path, PathBuf};

/// Each top-level module of the library and its layer, lowest first.
const LAYERS: &[(&str, u32)] = &[
    ("util", 0),
    ("text", 1),
    ("model", 1),
    ("governs", 2),
    ("mentions", 3),
    ("output", 2),
    ("rules", 2),
    ("fs", 3),
    ("parse", 3),
    ("imports", 3),
    ("git", 3),
    ("graph", 4),
    ("checks", 4),
    ("hooks", 4),
    ("write", 4),
    ("related", 4),
    ("scan", 5),
    ("drift", 5),
    ("index", 6),
    ("app", 7),
    ("watch", 8),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// Every `.rs` file under `dir`, relative to `src/`, `/`-separated.
fn sources(src: &Path, rel: &Path, out: &mut Vec<String>) {
    let dir = src.join(rel);
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("list {}: {e}", dir.display())) {
        let entry = entry.expect("a folder entry");
        let path = rel.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            sources(src, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The library's source files, with the top-level module each belongs to.
fn library_files() -> Vec<(String, String)> {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, Path::new(""), &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|f| {
            f != "main.rs" && f != "lib.rs" && !f.starts_with("cli/") && !f.starts_with("mcp/")
        })
        .map(|f| {
            let module = f
                .split('/')
                .next()
                .unwrap_or_default()
                .trim_end_matches(".rs")
                .to_string();
            (f, module)
        })
        .collect()
}

/// The modules `text` names as `crate::NAME`.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `context_graph::…` or `my_crate::…`
        }
        let ident = |s: &str| -> String {
            s.trim_start()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        };
        match rest.strip_prefix('{') {
            // `crate::{a, b::{c, d}}`: the first name of each item at the top of the group.
            Some(group) => {
                let mut depth = 0;
                let mut item_start = 0;
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            out.push(ident(&group[item_start..i]));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            out.push(ident(&group[item_start..i]));
                            item_start = i + 1;
                        }
                        _ => {}
                    }
                }
            }
            None => out.push(ident(rest)),
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[test]
fn no_module_imports_a_higher_layer() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    let files = library_files();
    assert!(files.len() > 20, "found only {files:?}");
    for (file, module) in &files {
        let own = layer(module).unwrap_or_else(|| {
            panic!("{file}: the module `{module}` has no layer: add it to LAYERS and ADR-0007")
        });
        let text = std::fs::read_to_string(src.join(file)).expect("read a source file");
        for target in crate_paths(&text) {
            if target == *module {
                continue;
            }
            match layer(&target) {
                Some(l) if l < own => {}
                Some(l) => wrong.push(format!(
                    "{file} (`{module}`, layer {own}) names crate::{target} (layer {l})"
                )),
                None => wrong.push(format!("{file} names crate::{target}, which has no layer")),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read lib.rs");
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert!(declared.len() >= LAYERS.len() - 1, "{declared:?}");
    for m in &declared {
        assert!(
            layer(m).is_some(),
            "lib.rs declares `{m}`, which has no layer"
        );
    }
}

#[test]
fn the_library_never_prints() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut printing = Vec::new();
    for (file, _) in library_files() {
        let text = std::fs::read_to_string(src.join(&file)).expect("read a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if [
                "println!",
                "eprintln!",
                "print!(",
                "eprint!(",
                "std::io::stdout",
                "std::io::stderr",
            ]
            .iter()
            .any(|m| code.contains(m))
            {
                printing.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        printing.is_empty(),
        "the library prints:\n{}",
        printing.join("\n")
    );
}

#[test]
fn the_layer_reader_sees_what_it_must() {
    let found = crate_paths(
        "use crate::fs::tree;\n/// see [`crate::index::X`]\nlet x = context_graph::app::y; my_crate::z\nuse crate::{drift, scan::{a, b}, git};",
    );
    assert_eq!(found, ["fs", "index", "drift", "scan", "git"]);
}

/// The MCP server is a front door beside `cli` (ADR-0014): it asks `app`'s questions and renders
/// with `output`, and never reaches below `app` (the index, the scan, git).
#[test]
fn the_mcp_server_reaches_no_lower_than_app() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, Path::new("mcp"), &mut files);
    assert!(!files.is_empty(), "no source under src/mcp/");
    let allowed = [
        "app", "output", "Ask", "Options", "Session", "Answer", "Error",
    ];
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(src.join(file)).expect("read a source file");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("context_graph::") {
            rest = &rest[at + "context_graph::".len()..];
            let names: Vec<String> = match rest.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(|n| n.trim().split("::").next().unwrap_or_default().to_string())
                    .filter(|n| !n.is_empty())
                    .collect(),
                None => vec![rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()],
            };
            for name in names {
                if !allowed.contains(&name.as_str()) {
                    wrong.push(format!("{file} names context_graph::{name}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "below app:\n{}", wrong.join("\n"));
}
