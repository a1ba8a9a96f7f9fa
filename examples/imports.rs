//! Dumps a repository's import edges as `context_graph::imports` reads and resolves them, one
//! `FROM -> TO` a line, sorted (TO a tracked file, a Go/Java package folder, or `pkg:NAME`
//! with `--packages`); `--all` prints every import with its line, kind and spec instead. The
//! oracle comparisons of docs/rules.md run it against dependency-cruiser and import-linter:
//!
//! ```text
//! cargo run --release --example imports -- ROOT [--packages | --all] [--under PREFIX]
//! ```

use context_graph::imports::{lang_of, read_imports, Import, Project, Target};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `--under PREFIX`: read only the files under PREFIX (resolution still sees the tree).
    let under = args
        .iter()
        .position(|a| a == "--under")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_default();
    let Some(root) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: imports ROOT [--packages | --all] [--under PREFIX]");
        std::process::exit(2);
    };
    let packages = args.iter().any(|a| a == "--packages");
    let all = args.iter().any(|a| a == "--all");
    let started = Instant::now();
    let listed = Command::new("git")
        .args(["-C", root, "ls-files", "-z"])
        .output()
        .unwrap_or_else(|e| fail(&format!("git ls-files in {root}: {e}")));
    if !listed.status.success() {
        fail(&format!("{root} is not a git work tree"));
    }
    let tracked: Vec<String> = listed
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    let root = Path::new(root);
    let read = |p: &str| std::fs::read(root.join(p)).ok();
    let project = Project::new(&tracked, &read);
    let sources: Vec<&String> = tracked
        .iter()
        .filter(|p| lang_of(p).is_some() && p.starts_with(under.as_str()))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = sources.len().div_ceil(threads).max(1);
    let per_file: Vec<(String, Vec<(Import, Target)>)> = std::thread::scope(|s| {
        let handles: Vec<_> = sources
            .chunks(chunk)
            .map(|files| {
                let project = &project;
                s.spawn(move || {
                    files
                        .iter()
                        .map(|from| {
                            let bytes = read(from).unwrap_or_default();
                            let imports = read_imports(from, &bytes)
                                .into_iter()
                                .map(|i| {
                                    let t = project.resolve(from, &i);
                                    (i, t)
                                })
                                .collect();
                            ((*from).clone(), imports)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut lines = BTreeSet::new();
    let mut count = 0usize;
    for (from, imports) in &per_file {
        for (import, target) in imports {
            count += 1;
            if all {
                lines.insert(format!(
                    "{from}:{}\t{:?}\t{}\t{target:?}",
                    import.line, import.kind, import.spec
                ));
                continue;
            }
            match target {
                Target::File(to) if to != from => {
                    lines.insert(format!("{from} -> {to}"));
                }
                Target::Package(name) if packages => {
                    lines.insert(format!("{from} -> pkg:{name}"));
                }
                _ => {}
            }
        }
    }
    for line in &lines {
        println!("{line}");
    }
    eprintln!(
        "{} files, {count} imports, {} lines in {:.3}s",
        per_file.len(),
        lines.len(),
        started.elapsed().as_secs_f64()
    );
}

fn fail(message: &str) -> ! {
    eprintln!("imports: {message}");
    std::process::exit(2);
}
