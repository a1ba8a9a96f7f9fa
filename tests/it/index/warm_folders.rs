//! A warm answer lists no folder it does not need (issue 41, ADR-0016): on a repository of
//! adrkit's shape (records declaring `affects:` globs, `@adr` markers in sources, guides in many
//! folders, a global excludes file), `why FILE` with the index fresh reads what the index holds
//! and stats what it depends on, and lists (`getdents64`) only folders inside `.git/`, for a
//! glob no tracked file matches the folders that may hold a match, and the folder where a
//! missing path may have gone, each once; and it opens git's index once, for its checksum. On
//! a repository whose many records name paths in other repositories (folders that are not
//! here), it looks up nothing under those folders and each record file once. Seen from
//! outside, by running the binary under `strace` (skipped, saying so, where strace is missing
//! or may not trace); its answers equal `--no-index`'s.

use super::{assert_same, PAST_RACY_WINDOW};
use crate::git::GitRepo;
use std::collections::BTreeMap;
use std::process::Stdio;

/// Two paths a record names that are not there, in one folder: where each may have gone is
/// found from the names in `pkg/core/src`, listed once for both.
const LEDGER_A: &str = "pkg/core/src/ledger-sync/a.ts";
const LEDGER_B: &str = "pkg/core/src/ledger-sync/b.ts";

/// An adrkit-shaped record: `affects:` path patterns in its frontmatter.
fn kit_record(id: &str, title: &str, patterns: &[&str]) -> String {
    let affects: String = patterns
        .iter()
        .map(|p| format!("  - type: path\n    pattern: \"{p}\"\n"))
        .collect();
    format!(
        "---\nschemaVersion: 0.1.0\nid: \"{id}\"\ntitle: {title}\nstatus: accepted\n\
         date: 2026-01-01\naffects:\n{affects}---\n\n# ADR-{id}: {title}\n\n## Decision\n\nAs above.\n"
    )
}

/// The repository: four records whose globs a tracked file matches and one that no file
/// matches (`pkg/adapters/import-*/**`, as adrkit's ADR-0019), sources with markers in many
/// folders, a guide in each package and spec folder, what the global excludes file ignores
/// (a build folder, logs) present but untracked; committed, indexed, and past the racy
/// window.
fn kit_repo() -> GitRepo {
    let repo = GitRepo::new();
    let home = repo.env().home();
    std::fs::write(home.join("global-ignore"), "build/\n*.log\n").expect("the excludes file");
    std::fs::write(
        home.join(".gitconfig"),
        format!(
            "[core]\n\texcludesFile = {}\n",
            home.join("global-ignore").display()
        ),
    )
    .expect("the user's git configuration");
    repo.write(
        "docs/adr/0001-core-schema.md",
        &kit_record(
            "0001",
            "Type the schema",
            &["pkg/core/src/schema/**", "schema/**"],
        ),
    )
    .write(
        "docs/adr/0002-adapters.md",
        &kit_record(
            "0002",
            "Adapters",
            &["pkg/adapters/**", "pkg/adapters/*/test/**"],
        ),
    )
    .write(
        "docs/adr/0003-catalogs.md",
        &kit_record(
            "0003",
            "Catalogs",
            &["pkg/adapters/catalog-*/**", "pkg/adapters/import-*/**"],
        ),
    )
    .write(
        "docs/adr/0004-specs.md",
        &kit_record("0004", "Specs", &["specs/**/plan.md", "pkg/*/README.md"]),
    )
    .write(
        "docs/adr/0006-helper.md",
        "# 6. Use the helper\n\nStatus: Accepted\n\nDate: 2026-01-01\n\n## Decision\n\n\
         Call `Ember.uuid` and `Function.prototype` from `pkg/core/src/queue/index.ts`.\n",
    )
    .write(
        "docs/adr/0005-ledger.md",
        &kit_record("0005", "Ledger", &[LEDGER_A, LEDGER_B]),
    );
    for pkg in ["core", "cli", "mcp", "evaluator"] {
        for part in [
            "src/schema",
            "src/queue",
            "src/report",
            "test/fixtures/pass",
        ] {
            let file = format!("pkg/{pkg}/{part}/index.ts");
            repo.write(&file, "// @adr 0001\nexport const x = 1;\n");
        }
        repo.write(&format!("pkg/{pkg}/README.md"), "See ADR-0001.\n");
        repo.write(&format!("pkg/{pkg}/docs/guide.md"), "Read ADR-0002.\n");
    }
    for adapter in ["catalog-backstage", "spec-kit", "agent-plugin"] {
        repo.write(
            &format!("pkg/adapters/{adapter}/src/main.ts"),
            "/* @adr 0002 */\nexport {};\n",
        )
        .write(
            &format!("pkg/adapters/{adapter}/test/main.test.ts"),
            "// test\n",
        )
        .write(&format!("pkg/adapters/{adapter}/README.md"), "ADR-0003.\n");
    }
    for spec in ["001-schema", "002-affects", "003-catalog"] {
        repo.write(&format!("specs/{spec}/plan.md"), "Plan under ADR-0004.\n")
            .write(&format!("specs/{spec}/contracts/api.md"), "The API.\n");
    }
    repo.write("schema/adr.schema.json", "{}\n");
    repo.commit_at("2026-01-02T10:00:00Z", "Ana", "Start");
    // Ignored by the global excludes file: never tracked, never walked for.
    repo.write("pkg/core/build/out.md", "generated\n")
        .write("pkg/adapters/spec-kit/build/out.ts", "generated\n")
        .write("pkg/cli/debug.log", "log\n");
    let built = repo.run(&["index"]);
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    std::thread::sleep(PAST_RACY_WINDOW);
    repo
}

/// Runs the binary with `args` under strace with `flags` (before `-o`), its log in the test's
/// home as `name`: the run's output and the log's text.
fn strace(
    repo: &GitRepo,
    flags: &[&str],
    args: &[&str],
    name: &str,
) -> std::io::Result<(std::process::Output, String)> {
    let log = repo.env().path().join(name);
    let out = repo
        .command("strace")
        .args(flags)
        .arg("-o")
        .arg(&log)
        .arg(crate::env::BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()?;
    Ok((out, std::fs::read_to_string(&log).unwrap_or_default()))
}

/// The folders of the work tree (not under `.git/`) a run of the binary with `args` listed,
/// each with how many times (a listing ends with the `getdents64` that returns nothing), as
/// strace names the handle (`-y`); `None` (having said why) where strace cannot trace here.
fn listed_folders(repo: &GitRepo, args: &[&str]) -> Option<BTreeMap<String, usize>> {
    let probe = repo.command("strace").arg("-V").output();
    if !probe.is_ok_and(|o| o.status.success()) {
        crate::skip::skipped("strace is not on PATH (apt-get install strace)");
        return None;
    }
    let (out, traced) = strace(
        repo,
        &["-f", "-y", "-qq", "-e", "trace=getdents64"],
        args,
        "strace.log",
    )
    .expect("run strace");
    if !out.status.success() && traced.is_empty() {
        crate::skip::skipped(&format!(
            "strace cannot trace here: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
        return None;
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = repo.path().display().to_string();
    let mut folders = BTreeMap::new();
    for line in traced.lines() {
        let Some(at) = line.find("getdents64(") else {
            continue;
        };
        let Some((_, rest)) = line[at..].split_once('<') else {
            continue;
        };
        let Some((folder, _)) = rest.split_once('>') else {
            continue;
        };
        let Some(rel) = folder.strip_prefix(&root) else {
            continue;
        };
        let rel = rel.trim_start_matches('/');
        if rel == ".git" || rel.starts_with(".git/") {
            continue;
        }
        let listings: &mut usize = folders.entry(rel.to_string()).or_default();
        if line.trim_end().ends_with("= 0") {
            *listings += 1;
        }
    }
    Some(folders)
}

/// `why FILE` on a file governed through `affects:` globs and markers, and on one governed by
/// an adapter's glob, lists no folder of the work tree but the one a glob no tracked file
/// matches may hold a match in (`pkg/adapters`, for `import-*`) and the one where the missing
/// paths may have gone (`pkg/core/src`), each once: not the packages, the spec folders, the
/// guides' folders nor the ignored build folders. Before issue 41 each answer walked every
/// folder under each glob's literal folder, and listed a missing path's folder once per path;
/// and read every entry of git's index to ask it again about the glob no tracked file matches.
#[test]
fn a_warm_why_lists_only_the_folders_it_needs_once() {
    let repo = kit_repo();
    for file in [
        "pkg/core/src/schema/index.ts",
        "pkg/adapters/spec-kit/src/main.ts",
    ] {
        let why = ["why", file, "--json"];
        // The first answer settles the memo; the next is the warm one measured.
        assert_same(&repo, &format!("why {file}"), &why);
        let Some(listed) = listed_folders(&repo, &why) else {
            return;
        };
        let wanted = BTreeMap::from([
            ("pkg/adapters".to_string(), 1),
            ("pkg/core/src".to_string(), 1),
        ]);
        assert_eq!(
            listed, wanted,
            "why {file}: the warm answer listed folders it does not need, or twice"
        );
        // Nor does it read git's index for the glob no tracked file matches: that index is
        // the one the scan asked (issue 41).
        let (_, index_opens) = looked_up(&repo, &why).expect("traced above");
        assert_eq!(
            index_opens, 1,
            "why {file}: git's index is opened for its checksum alone"
        );
        assert_same(&repo, &format!("why {file}, again"), &why);
    }
}

/// The same glob, once an untracked file matches it: the warm answer sees it at once (the
/// folder that may hold a match is listed), as `--no-index` does; once git tracks it, nothing
/// under `pkg/adapters/` is listed any more.
#[test]
fn a_glob_matched_by_a_new_file_is_seen_at_once_and_then_needs_no_listing() {
    let repo = kit_repo();
    let why = ["why", "pkg/adapters/import-csv/src/read.ts", "--json"];
    let check = ["check", "--json"];
    let missing = |run: &crate::env::Run| {
        run.json()["records"]
            .as_array()
            .expect("records")
            .iter()
            .find(|r| r["id"] == "ADR-0003")
            .expect("ADR-0003")["missing_paths"]
            .clone()
    };
    let before = assert_same(&repo, "before", &check);
    assert_eq!(
        missing(&before),
        serde_json::json!(["pkg/adapters/import-*/**"])
    );
    repo.write("pkg/adapters/import-csv/src/read.ts", "export {};\n");
    let after = assert_same(&repo, "an untracked file the glob matches", &check);
    assert_eq!(
        missing(&after),
        serde_json::json!([]),
        "the new match is seen at once"
    );
    assert_same(&repo, "why the new file", &why);
    repo.git(&["add", "-A"]);
    assert_same(&repo, "the new file staged", &check);
    assert_same(&repo, "why the new file, staged", &why);
    let Some(listed) = listed_folders(&repo, &why) else {
        return;
    };
    assert_eq!(
        listed,
        BTreeMap::from([("pkg/core/src".to_string(), 1)]),
        "every glob now matches a tracked file: only the missing paths' folder is listed"
    );
}

/// The names a record's prose gives that are not paths (`Ember.uuid`, as emberjs's RFCs write
/// them) are not stat'ed by a warm answer while the root is as it was and git's index is the
/// one the scan read: the root vouches for them (issue 41). A file of that name appearing is
/// seen at once, as `--no-index` sees it; so is git's index changing.
#[test]
fn names_that_are_not_paths_are_vouched_for_by_their_folder() {
    let repo = kit_repo();
    let why = ["why", "pkg/core/src/queue/index.ts", "--json"];
    let check = ["check", "--json"];
    assert_same(&repo, "the names in prose", &why);
    assert_same(&repo, "the names in prose", &check);
    let stats = |repo: &GitRepo| -> Option<Vec<String>> {
        let flags = ["-f", "-qq", "-e", "trace=stat,lstat,newfstatat,statx"];
        let (out, traced) = strace(repo, &flags, &why, "stats.log").ok()?;
        out.status.success().then_some(())?;
        Some(
            traced
                .lines()
                .filter(|l| l.contains("\"Ember.uuid\"") || l.contains("\"Function.prototype\""))
                .map(str::to_string)
                .collect(),
        )
    };
    if listed_folders(&repo, &why).is_none() {
        return;
    }
    let Some(stated) = stats(&repo) else {
        crate::skip::skipped("strace cannot trace the stats here");
        return;
    };
    assert!(
        stated.is_empty(),
        "the warm answer stat'ed names its folder vouches for: {stated:?}"
    );
    repo.write("Ember.uuid", "now a file\n");
    assert_same(&repo, "a file of that name appears", &why);
    assert_same(&repo, "a file of that name appears", &check);
    repo.git(&["add", "Ember.uuid"]);
    assert_same(&repo, "and is staged", &check);
    assert_same(&repo, "and is staged", &why);
}

/// A repository whose records name code in other repositories (`vendor-org/agent/…`, as
/// vector's records name DataDog's agent: a folder that is not here) and that has many
/// records: committed, indexed, and past the racy window.
fn foreign_repo() -> GitRepo {
    let repo = GitRepo::new();
    for n in 1..=40 {
        repo.write(
            &format!("docs/adr/{n:04}-decision-{n}.md"),
            &format!(
                "# {n}. Decision {n}\n\nStatus: Accepted\n\nDate: 2026-01-01\n\n## Decision\n\n\
                 Keep `src/app/main.rs` as `vendor-org/agent-{n}/pkg/collector/check.go` does,\n\
                 and `vendor-org/agent-{n}/cmd/run/main.go`, see [the agent]\
                 (https://github.com/vendor-org/agent-{n}/blob/main/pkg/util/log.go).\n"
            ),
        );
    }
    repo.write("src/app/main.rs", "fn main() {}\n");
    repo.commit_at("2026-01-02T10:00:00Z", "Ana", "Start");
    let built = repo.run(&["index"]);
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    std::thread::sleep(PAST_RACY_WINDOW);
    repo
}

/// Every path of the work tree (not under `.git/`) a run of the binary with `args` looked up
/// (stat'ed or opened), root-relative, each with how many times, and how many times it opened
/// git's index; `None` (having said why) where strace cannot trace here.
fn looked_up(repo: &GitRepo, args: &[&str]) -> Option<(BTreeMap<String, usize>, usize)> {
    listed_folders(repo, args)?;
    let flags = [
        "-f",
        "-qq",
        "-e",
        "trace=stat,lstat,newfstatat,statx,open,openat,access,faccessat,faccessat2",
    ];
    let (out, traced) = strace(repo, &flags, args, "lookups.log").expect("run strace");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let root = format!("{}/", repo.path().display());
    let mut paths = BTreeMap::new();
    let git_index = format!("{root}.git/index\"");
    let index_opens = traced
        .lines()
        .filter(|l| l.contains("open") && l.contains(&git_index))
        .count();
    for line in traced.lines() {
        // The first quoted argument: relative ones are the root's (looked up from it).
        let Some((_, rest)) = line.split_once('"') else {
            continue;
        };
        let Some((path, _)) = rest.split_once('"') else {
            continue;
        };
        let rel = match path.strip_prefix(&root) {
            Some(rel) => rel,
            None if path.starts_with('/') || path.is_empty() => continue,
            None => path,
        };
        if rel == ".git" || rel.starts_with(".git/") {
            continue;
        }
        *paths.entry(rel.to_string()).or_default() += 1;
    }
    Some((paths, index_opens))
}

/// A warm answer on a repository whose records name paths in folders that are not there (code
/// in other repositories) looks up nothing under them: the missing folder itself stands for
/// every ignore file that could be under it (issue 41; before, each answer stat'ed a
/// `.gitignore` in every folder of every such path, 275 per answer on vector). Nor does it
/// look up any record file twice, nor read git's index but for its checksum (one open: before,
/// a second one read every entry to ask whether git tracks those paths, which the same index
/// cannot say otherwise than it did). A folder of that name appearing, with an ignore file in
/// it, is seen at once, as `--no-index` sees it.
#[test]
fn a_warm_why_looks_up_nothing_under_folders_that_are_not_there() {
    let repo = foreign_repo();
    let why = ["why", "src/app/main.rs", "--json"];
    let check = ["check", "--json"];
    assert_same(&repo, "why, first", &why);
    assert_same(&repo, "check, first", &check);
    let Some((paths, index_opens)) = looked_up(&repo, &why) else {
        return;
    };
    assert_eq!(
        index_opens, 1,
        "git's index is opened for its checksum alone"
    );
    let under: Vec<&String> = paths
        .keys()
        .filter(|p| p.starts_with("vendor-org/"))
        .collect();
    assert!(
        under.is_empty(),
        "the warm answer looked up paths under a folder that is not there: {under:?}"
    );
    let twice: Vec<(&String, &usize)> = paths
        .iter()
        .filter(|(p, n)| p.starts_with("docs/adr/0") && **n > 1)
        .collect();
    assert!(
        twice.is_empty(),
        "record files looked up more than once: {twice:?}"
    );
    let records = paths.keys().filter(|p| p.starts_with("docs/adr/0")).count();
    assert_eq!(records, 40, "each record file is stat'ed once: {paths:?}");
    // The folder appears, holding an ignore file that ignores a path a record names.
    repo.write("vendor-org/agent-7/.gitignore", "pkg/\n")
        .write(
            "vendor-org/agent-7/pkg/collector/check.go",
            "package collector\n",
        )
        .write("vendor-org/agent-7/cmd/run/main.go", "package main\n");
    assert_same(&repo, "the foreign folder appears", &check);
    assert_same(&repo, "the foreign folder appears", &why);
    std::fs::remove_file(repo.path().join("vendor-org/agent-7/.gitignore")).expect("remove");
    assert_same(&repo, "its ignore file goes", &check);
    assert_same(&repo, "its ignore file goes", &why);
}

/// A glob no tracked file matches (`pkg/adapters/import-*/**`) has its folder listed by every
/// warm answer, and nothing in that folder can match it (no `import-*` folder): no ignore file
/// is read, neither the folder's own `.gitignore` and `.ignore` and those above it, nor
/// `info/exclude` and the global excludes file (ADR-0016, amendment of 2026-12-06). Before, each
/// answer read them to ask whether the folders it then did not enter were ignored. A matching
/// file that appears, and one the global excludes file ignores, are each seen as `--no-index`
/// sees them.
#[test]
fn a_glob_whose_folder_holds_no_candidate_reads_no_ignore_file() {
    let repo = kit_repo();
    let why = ["why", "schema/adr.schema.json", "--json"];
    let check = ["check", "--json"];
    assert_same(&repo, "warm", &why);
    if listed_folders(&repo, &why).is_none() {
        return;
    }
    let flags = ["-f", "-qq", "-e", "trace=open,openat"];
    let (out, traced) = strace(&repo, &flags, &why, "ignores.log").expect("run strace");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let read: Vec<&str> = traced
        .lines()
        .filter(|l| {
            [
                ".gitignore\"",
                ".ignore\"",
                "/info/exclude\"",
                "global-ignore\"",
            ]
            .iter()
            .any(|f| l.contains(f))
        })
        .collect();
    assert!(
        read.is_empty(),
        "the warm answer read ignore files:\n{}",
        read.join("\n")
    );
    repo.write("pkg/adapters/import-csv/build/out.ts", "generated\n");
    assert_same(&repo, "a match the global excludes file ignores", &check);
    repo.write("pkg/adapters/import-csv/src/read.ts", "export {};\n");
    assert_same(&repo, "a match", &check);
    assert_same(&repo, "a match", &why);
}

/// Where a missing path may have gone, one folder down under the same name, is looked for only
/// in the folders beside it: a file cannot hold it (issue 41; vector's `src/` holds forty
/// files beside its folders, and each warm answer stat'ed `src/FILE/metrics` for each). A
/// folder that then gets the path is seen at once, as `--no-index` sees it.
#[test]
fn where_a_missing_path_went_is_looked_for_in_folders_not_files() {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-metrics.md",
        "# 1. Metrics\n\nStatus: Accepted\n\nDate: 2026-01-01\n\n## Decision\n\n\
         The metrics live in `src/metrics/`.\n",
    );
    for name in ["main.rs", "lib.rs", "util.rs", "types.rs"] {
        repo.write(&format!("src/{name}"), "// code\n");
    }
    repo.write("src/app/run.rs", "// app\n")
        .write("src/core/mod.rs", "// core\n");
    repo.commit_at("2026-01-02T10:00:00Z", "Ana", "Start");
    let built = repo.run(&["index"]);
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    std::thread::sleep(PAST_RACY_WINDOW);
    let why = ["why", "src/app/run.rs", "--json"];
    let check = ["check", "--json"];
    assert_same(&repo, "first", &why);
    assert_same(&repo, "first", &check);
    let Some((paths, _)) = looked_up(&repo, &why) else {
        return;
    };
    for folder in ["src/app/metrics", "src/core/metrics"] {
        assert!(
            paths.contains_key(folder),
            "the warm answer vouches for where `src/metrics/` went through {folder}: {paths:?}"
        );
    }
    let in_files: Vec<&String> = paths
        .keys()
        .filter(|p| p.starts_with("src/") && p.ends_with(".rs/metrics"))
        .collect();
    assert!(
        in_files.is_empty(),
        "a file was looked into for the missing path: {in_files:?}"
    );
    repo.write("src/core/metrics/counter.rs", "// counter\n");
    let found = assert_same(&repo, "the path appears one folder down", &check);
    assert!(
        found.stdout().contains("src/core/metrics"),
        "the move is found: {}",
        found.stdout()
    );
    assert_same(&repo, "the path appears one folder down", &why);
}
