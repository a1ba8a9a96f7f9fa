//! Paths as a user types them (issue 36, docs/commands.md "Ids and paths"): a relative PATH is
//! read from the current folder when that is inside the root, with or without `--root`; the
//! JSON keeps the root-relative path; a path leaving the root is still refused; a path neither
//! tracked nor on disk is answered, exit 0, and said once on stderr.

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2025-03-05T10:00:00Z";

fn repo() -> GitRepo {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0001-assets.md",
        "# 1. Assets\n\nStatus: Accepted\nDate: 2025-01-01\n\n## Decision\n\n\
         Assets live in `app/models/asset.rb`.\n",
    )
    .write(
        "docs/adr/0002-images.md",
        "# 2. Images\n\nStatus: Accepted\nDate: 2025-01-01\n\n## Decision\n\nResize on upload.\n",
    )
    .write("app/models/asset.rb", "class Asset; end\n")
    .write("app/models/image.rb", "class Image; end\n")
    .write("app/models/gone.rb", "class Gone; end\n");
    g.commit_at(DATE, "Ann", "initial");
    g
}

/// `why ARGS --json` from `cwd`: (the path answered, the governing ids).
fn why_in(g: &GitRepo, cwd: &std::path::Path, args: &[&str]) -> (String, Vec<String>) {
    let mut all = vec!["why"];
    all.extend(args);
    all.push("--json");
    let run = g.env().run_in(cwd, &all);
    run.assert_code(0);
    assert!(run.stderr.is_empty(), "{}", run.describe());
    let q: Value = run.json()["query"].clone();
    let ids = q["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| d["id"].as_str().unwrap_or("").to_string())
        .collect();
    (q["why"].as_str().unwrap_or("").to_string(), ids)
}

#[test]
fn why_reads_a_path_from_the_current_folder() {
    let g = repo();
    let models = g.path().join("app/models");
    let root = g.path().to_str().unwrap().to_string();
    let asset = (
        "app/models/asset.rb".to_string(),
        vec!["ADR-0001".to_string()],
    );
    assert_eq!(why_in(&g, &models, &["asset.rb"]), asset);
    assert_eq!(why_in(&g, &models, &["./asset.rb"]), asset);
    assert_eq!(why_in(&g, &models, &["../models/asset.rb"]), asset);
    assert_eq!(why_in(&g, &models, &["asset.rb", "--root", &root]), asset);
    let flag = g.env().run_in(&models, ["--why", "asset.rb", "--json"]);
    flag.assert_code(0);
    assert_eq!(flag.json()["query"]["why"], "app/models/asset.rb");
    assert_eq!(
        why_in(&g, &g.path().join("app"), &["models/asset.rb"]),
        asset
    );
    // From the root, and from outside it with `--root`, a path is the root's, as before.
    assert_eq!(why_in(&g, g.path(), &["app/models/asset.rb"]), asset);
    assert_eq!(
        why_in(
            &g,
            g.env().path(),
            &["app/models/asset.rb", "--root", &root]
        ),
        asset
    );
    // Leaving the root is refused, from a folder as from the top.
    let out = g.env().run_in(&models, ["why", "../../../elsewhere.rb"]);
    out.assert_code(2);
    assert!(out.stderr.contains("leaves the root"), "{}", out.describe());
}

#[test]
fn context_and_scope_read_paths_from_the_current_folder() {
    let g = repo();
    let models = g.path().join("app/models");
    let run = g.env().run_in(&models, ["context", "asset.rb", "--json"]);
    run.assert_code(0);
    let j = run.json();
    let governing: Vec<&str> = j["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(governing, ["ADR-0001"], "{j:#}");

    let run = g
        .env()
        .run_in(&models, ["scope", "2", "--add", "image.rb", "--json"]);
    run.assert_code(0);
    let j = run.json();
    assert_eq!(
        j["scope"]["added"],
        serde_json::json!(["app/models/image.rb"]),
        "{j:#}"
    );
    assert_eq!(
        why_in(&g, &models, &["image.rb"]),
        (
            "app/models/image.rb".to_string(),
            vec!["ADR-0002".to_string()]
        )
    );
}

#[test]
fn a_path_neither_tracked_nor_on_disk_is_answered_and_said() {
    let g = repo();
    // A slip of the keys: answered (nothing governs it), exit 0, one line naming the close path.
    let run = g.run(&["why", "app/modles/asset.rb", "--json"]);
    run.assert_code(0);
    assert_eq!(
        run.stderr,
        "context-graph: app/modles/asset.rb is neither tracked nor on disk (did you mean app/models/asset.rb?)\n",
        "{}",
        run.describe()
    );
    assert_eq!(run.json()["query"]["why"], "app/modles/asset.rb");
    // Typed from a folder: the line names the root-relative path.
    let run = g
        .env()
        .run_in(&g.path().join("app"), ["why", "models/nothing-like-it.rb"]);
    run.assert_code(0);
    assert_eq!(
        run.stderr,
        "context-graph: app/models/nothing-like-it.rb is neither tracked nor on disk\n",
        "{}",
        run.describe()
    );
    // Tracked but deleted from the disk, or on disk but not tracked: nothing to say.
    std::fs::remove_file(g.path().join("app/models/gone.rb")).unwrap();
    g.write("app/models/new.rb", "class New; end\n");
    for path in [
        "app/models/gone.rb",
        "app/models/new.rb",
        "app/models/",
        "app",
    ] {
        let run = g.run(&["why", path]);
        run.assert_code(0);
        assert!(run.stderr.is_empty(), "{path}: {}", run.describe());
    }
    // `context` says it too.
    let run = g.run(&["context", "app/modles/asset.rb"]);
    run.assert_code(0);
    assert!(
        run.stderr
            .contains("app/modles/asset.rb is neither tracked nor on disk"),
        "{}",
        run.describe()
    );
}
