//! Files a record writes from below the root (docs/reading.md, "Named in passing"; ADR-0017):
//! a header as it is included (`` `oneapi/lib/global_control.h` `` for
//! `include/oneapi/lib/global_control.h`) or a file alone that only one tracked file bears
//! (`` `kit.cppm` ``) names that file: a code mention, so `why` lists the record as related by
//! its name. It governs nothing, so no commit is warned of it; a path two files end is a
//! mention of each without a related record, and documentation or tests are never named.

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2024-03-01T10:00:00Z";

const RECORD: &str = "# 7. An assertion handler\n\nStatus: accepted\n\n## Decision\n\n\
    The handler is declared in `oneapi/lib/global_control.h`, and the module interface \
    unit (`kit.cppm`) exports it; users set it in their `config.toml`. Memory comes from \
    `lib/numa_allocation.h`. The handler is installed in `src/main.cpp`.\n";

fn repo() -> GitRepo {
    let g = GitRepo::new();
    g.write("include/oneapi/lib/global_control.h", "#pragma once\n");
    g.write(
        "include/lib/global_control.h",
        "#include \"../oneapi/lib/global_control.h\"\n",
    );
    g.write("include/oneapi/kit.cppm", "export module kit;\n");
    g.write(".cargo/config.toml", "[build]\n");
    g.write("include/oneapi/lib/numa_allocation.h", "#pragma once\n");
    g.write("include/lib/numa_allocation.h", "#pragma once\n");
    g.write("docs/oneapi/lib/global_control.h.md", "# The header\n");
    g.write("src/main.cpp", "int main() {}\n");
    g.commit_at(DATE, "Ann", "initial");
    // Written after the code, so no commit added it with any of those files.
    g.write("docs/adr/0007-an-assertion-handler.md", RECORD);
    g.commit_at(DATE, "Ann", "Record the handler");
    g
}

fn related(g: &GitRepo, path: &str) -> Vec<(String, Vec<String>)> {
    let q: Value = g.run(&["why", path, "--json"]).json();
    crate::related::without_text(&q["query"]["related"])
        .as_array()
        .expect("related")
        .iter()
        .map(|r| {
            let kinds = r["evidence"]
                .as_array()
                .expect("evidence")
                .iter()
                .map(|e| e["kind"].as_str().unwrap_or("").to_string())
                .collect();
            (r["id"].as_str().unwrap_or("").to_string(), kinds)
        })
        .collect()
}

#[test]
fn a_header_written_as_included_names_the_one_file_it_ends() {
    let g = repo();
    let (gov, by) = g.why_ids("include/oneapi/lib/global_control.h");
    assert!(
        gov.is_empty(),
        "named from below the root, it governs nothing: {gov:?}"
    );
    assert_eq!(by, ["ADR-0007"]);
    assert_eq!(
        related(&g, "include/oneapi/lib/global_control.h"),
        [("ADR-0007".to_string(), vec!["name".to_string()])]
    );
    // The compatibility header of the same name does not end with the path as written.
    assert_eq!(g.why_ids("include/lib/global_control.h"), (vec![], vec![]));
    // Nor is the page documenting it named.
    assert!(related(&g, "docs/oneapi/lib/global_control.h.md").is_empty());
}

#[test]
fn a_file_alone_one_tracked_file_bears_is_named() {
    let g = repo();
    assert_eq!(
        related(&g, "include/oneapi/kit.cppm"),
        [("ADR-0007".to_string(), vec!["name".to_string()])]
    );
}

#[test]
fn a_file_alone_whose_name_every_repository_has_names_no_file() {
    let g = repo();
    assert_eq!(g.why_ids(".cargo/config.toml"), (vec![], vec![]));
}

#[test]
fn a_path_two_files_end_is_a_mention_of_each_and_related_to_neither() {
    let g = repo();
    for path in [
        "include/oneapi/lib/numa_allocation.h",
        "include/lib/numa_allocation.h",
    ] {
        assert_eq!(
            g.why_ids(path),
            (vec![], vec!["ADR-0007".to_string()]),
            "{path}"
        );
        assert!(related(&g, path).is_empty(), "{path}");
    }
}

#[test]
fn a_commit_changing_a_file_named_from_below_the_root_is_not_warned() {
    use crate::hooks::{commit, install, ok};
    let g = repo();
    install(&g);
    let quiet = ok(
        &commit(
            &g,
            "include/oneapi/lib/global_control.h",
            "#pragma once\n// more\n",
            "Edit the header",
        ),
        "git commit",
    );
    assert!(!quiet.contains("context-graph: warning"), "{quiet}");
    // The file it names from the root is governed, and warned of.
    let warned = ok(
        &commit(&g, "src/main.cpp", "int main() { return 0; }\n", "Return"),
        "git commit",
    );
    assert!(warned.contains("governed by ADR-0007"), "{warned}");
}
