//! A path a record names that git shows renamed since (a rename with edits, at git's default
//! 50% similarity) is `governed-path-moved` naming the new path, and the record's `moved`
//! entry; it does not govern at its new name (issue 36, docs/reading.md "Renamed since").

use crate::git::GitRepo;
use serde_json::Value;

/// Ten lines of a Ruby service; `edited` changes three of them.
fn service(edited: bool) -> String {
    let mut lines: Vec<String> = (0..10).map(|i| format!("  step_{i}(edition)\n")).collect();
    if edited {
        for l in lines.iter_mut().take(3) {
            *l = l.replace("step", "draft_step");
        }
    }
    format!("class Service\n{}end\n", lines.concat())
}

fn repo() -> GitRepo {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0014-tagging.md",
        "# 14. Tagging\n\nDate: 2019-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n\
         The [edit service](../../app/services/edit_edition_service.rb) tags each edition; \
         `app/workers/tag_worker.rb` retags them; `lib/tasks/retag.rake` reruns it; \
         `app/old/cleanup.rb` cleans up.\n",
    )
    .write("app/services/edit_edition_service.rb", &service(false))
    .write(
        "app/workers/tag_worker.rb",
        "class TagWorker\n  def perform\n    retag\n  end\nend\n",
    )
    .write(
        "lib/tasks/retag.rake",
        "task :retag do\n  Retag.run\n  Retag.done\nend\n",
    )
    .write("app/old/cleanup.rb", "class Cleanup\n  def run; end\nend\n");
    g.commit_at("2019-01-02T10:00:00Z", "Ann", "tagging");
    // Renamed with edits (70% alike), in a commit that also adds an unrelated file.
    g.mv(
        "app/services/edit_edition_service.rb",
        "app/services/edit_draft_edition_service.rb",
    )
    .write("app/services/edit_draft_edition_service.rb", &service(true))
    .write("app/services/unrelated.rb", "class Unrelated\nend\n");
    // Renamed twice: the path now is the second rename's.
    g.mv("app/workers/tag_worker.rb", "app/jobs/tag_job.rb");
    g.commit_at("2020-03-04T10:00:00Z", "Ben", "rename services and workers");
    g.mv("app/jobs/tag_job.rb", "app/jobs/retag_job.rb");
    // Deleted, and a different file added in its place: not alike, no rename.
    g.remove("lib/tasks/retag.rake");
    g.git(&["rm", "-q", "--cached", "lib/tasks/retag.rake"]);
    g.write("lib/tasks/other.rake", "task :other do\n  Other.go\nend\n");
    g.commit_at("2021-05-06T10:00:00Z", "Cy", "jobs");
    g
}

fn moved_and_gone(j: &Value) -> Vec<(String, String)> {
    crate::fixture::finding_list(j)
        .iter()
        .filter(|f| {
            f["code"]
                .as_str()
                .unwrap_or("")
                .starts_with("governed-path")
        })
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_path_git_shows_renamed_is_moved_to_its_new_name() {
    let g = repo();
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let run = g.run(args);
        let j: Value = run.json();
        let mut got = moved_and_gone(&j);
        got.sort();
        let want: Vec<(String, String)> = [
            ("governed-path-gone", "ADR-0014 names `lib/tasks/retag.rake`, which is gone with no close-named sibling: deprecate the record if the decision died, or find where the code went"),
            ("governed-path-moved", "ADR-0014 names `app/services/edit_edition_service.rb`, which git shows renamed to `app/services/edit_draft_edition_service.rb`: update the path in the record"),
            ("governed-path-moved", "ADR-0014 names `app/workers/tag_worker.rb`, which git shows renamed to `app/jobs/retag_job.rb`: update the path in the record"),
        ]
        .iter()
        .map(|(c, m)| (c.to_string(), m.to_string()))
        .collect();
        assert_eq!(got, want, "{args:?}: {j:#}");
        let r = crate::fixture::record(&j, "ADR-0014");
        assert_eq!(
            r["moved"]["app/services/edit_edition_service.rb"],
            serde_json::json!(["app/services/edit_draft_edition_service.rb"]),
            "{args:?}: {r:#}"
        );
        assert_eq!(
            crate::fixture::list(r, "governs"),
            ["app/old/cleanup.rb"],
            "a renamed path does not govern at its new name: {r:#}"
        );
    }
    let why = g.run(&[
        "why",
        "app/services/edit_draft_edition_service.rb",
        "--json",
    ]);
    why.assert_code(0);
    let q = why.json();
    assert_eq!(q["query"]["decisions"], serde_json::json!([]), "{q:#}");
}

/// A link into the forge's view of this repository's code, made before the file was renamed
/// (as content-publisher's ADR-0014 links `edit_edition_service.rb` at a commit): moved,
/// naming the new path; a linked file only deleted, or another repository's, says nothing.
#[test]
fn a_forge_link_to_a_file_git_shows_renamed_is_moved() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0014-tagging.md",
        "# 14. Tagging\n\nDate: 2019-01-01\n\n## Status\n\nAccepted\n\n## Decision\n\n\
         The [edit edition service][edit-edition-service] tags each edition, as \
         [the gem does](https://github.com/other/gem/blob/main/lib/gem/tagging.rb); the \
         [sweeper](https://github.com/acme/publisher/blob/0123abc/app/sweepers/sweeper.rb) \
         cleans up; compare [version 0.3.0's](https://github.com/acme/publisher/tree/0.3.0/app/workers/old_tagger.rb).\n\n\
         [edit-edition-service]: https://github.com/acme/publisher/blob/265226bc0c613d2294b4cb0d33d2f26cfcf54811/app/services/edit_edition_service.rb\n",
    )
    .write("app/services/edit_edition_service.rb", &service(false))
    .write("app/sweepers/sweeper.rb", "class Sweeper\n  def sweep; end\nend\n");
    g.commit_at("2019-01-02T10:00:00Z", "Ann", "tagging");
    g.mv(
        "app/services/edit_edition_service.rb",
        "app/services/edit_draft_edition_service.rb",
    )
    .write("app/services/edit_draft_edition_service.rb", &service(true));
    g.remove("app/sweepers/sweeper.rb");
    g.git(&["rm", "-q", "--cached", "app/sweepers/sweeper.rb"]);
    g.commit_at(
        "2020-03-04T10:00:00Z",
        "Ben",
        "rename services, drop the sweeper",
    );
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let j: Value = g.run(args).json();
        assert_eq!(
            moved_and_gone(&j),
            [(
                "governed-path-moved".to_string(),
                "ADR-0014 links `app/services/edit_edition_service.rb`, which git shows renamed to `app/services/edit_draft_edition_service.rb`: update the link in the record".to_string()
            )],
            "{args:?}: {j:#}"
        );
        let r = crate::fixture::record(&j, "ADR-0014");
        assert_eq!(
            r["moved"],
            serde_json::json!({
                "app/services/edit_edition_service.rb": ["app/services/edit_draft_edition_service.rb"]
            }),
            "{args:?}: {r:#}"
        );
        assert_eq!(
            crate::fixture::list(r, "missing_links"),
            [
                "app/services/edit_edition_service.rb",
                "app/sweepers/sweeper.rb",
                "gem/tagging.rb",
                "lib/gem/tagging.rb",
                "services/edit_edition_service.rb",
                "sweepers/sweeper.rb",
            ],
            "each reading of each link not there: {r:#}"
        );
    }
    let run = g.run(&["record", "ADR-0014", "--json"]);
    run.assert_code(0);
    assert!(
        crate::fixture::has_finding(&run.json(), "governed-path-moved", "ADR-0014"),
        "{}",
        run.describe()
    );
}

/// A folder a record names that one commit moved whole (FAC's `terraform/management`, renamed
/// `terraform/meta`): moved, naming the new folder, from the index and from a walk; a folder
/// only deleted is still gone.
#[test]
fn a_folder_git_shows_moved_whole_is_moved_to_its_new_name() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0022-iac.md",
        "# 22. Use IaC for access\n\nDate: 2022-12-09\n\n## Status\n\nAccepted\n\n## Decision\n\n\
         The code in the `terraform/management` directory sets who may deploy; \
         `terraform/legacy` is kept until then.\n",
    )
    .write("terraform/management/config.tf", "locals { a = 1 }\n")
    .write(
        "terraform/management/bootstrap/main.tf",
        "module \"b\" {}\n",
    )
    .write("terraform/legacy/old.tf", "locals { b = 2 }\n");
    g.commit_at("2022-12-10T10:00:00Z", "Ann", "iac");
    g.mv("terraform/management", "terraform/meta");
    g.commit_at("2023-07-18T10:00:00Z", "Bret", "Rename management to meta");
    g.git(&["rm", "-q", "-r", "terraform/legacy"]);
    g.commit_at("2023-08-01T10:00:00Z", "Cy", "Drop legacy");
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let j: Value = g.run(args).json();
        let mut got = moved_and_gone(&j);
        got.sort();
        assert_eq!(
            got,
            [
                ("governed-path-gone".to_string(), "ADR-0022 names `terraform/legacy`, which is gone with no close-named sibling: deprecate the record if the decision died, or find where the code went".to_string()),
                ("governed-path-moved".to_string(), "ADR-0022 names `terraform/management`, which git shows renamed to `terraform/meta`: update the path in the record".to_string()),
            ],
            "{args:?}: {j:#}"
        );
    }
}

/// A folder moved with some of its files edited on the way (git-en-boite's
/// `packages/command-bus`, renamed `packages/message-dispatch` with its `package.json`
/// renamed inside): moved, since at least half its files are at their paths in the new folder
/// with at least half their content. A folder deleted as a new one with the same file names
/// but other content is added is still gone, and so is one split in two halves
/// (content-publisher's `app/interactors/documents`).
#[test]
fn a_folder_moved_with_edits_on_the_way_is_moved_to_its_new_name() {
    let g = GitRepo::new();
    g.write(
        "docs/adr/0003-command-bus.md",
        "# 3. A command bus\n\nDate: 2020-05-01\n\n## Status\n\nAccepted\n\n## Decision\n\n\
         Commands go through `packages/command-bus`; the console lives in `packages/console`, \
         its jobs in `packages/jobs`.\n",
    )
    .write(
        "packages/command-bus/package.json",
        "{\n  \"name\": \"command-bus\",\n  \"version\": \"1.0.0\",\n  \"main\": \"dist/index.js\",\n  \"license\": \"MIT\"\n}\n",
    )
    .write("packages/command-bus/src/index.ts", "export * from './build_dispatch'\n")
    .write(
        "packages/command-bus/src/build_dispatch.ts",
        "export function buildDispatch() {\n  return (m: unknown) => m\n}\n",
    )
    .write("packages/console/src/index.ts", "export const console = 1\n")
    .write("packages/console/src/main.ts", "console.log('old')\n")
    .write("packages/jobs/update.rb", "def update\n  save\nend\n")
    .write("packages/jobs/destroy.rb", "def destroy\n  delete\nend\n");
    g.commit_at("2020-05-02T10:00:00Z", "Ann", "bus");
    g.mv("packages/command-bus", "packages/message-dispatch");
    g.write(
        "packages/message-dispatch/package.json",
        "{\n  \"name\": \"message-dispatch\",\n  \"version\": \"1.0.0\",\n  \"main\": \"dist/index.js\",\n  \"license\": \"MIT\"\n}\n",
    );
    g.commit_at("2020-06-26T10:00:00Z", "Bret", "Rename command-bus package");
    g.git(&["rm", "-q", "-r", "packages/console"]);
    g.write("packages/content/update.rb", "def update\n  save\nend\n")
        .write(
            "packages/editions/destroy.rb",
            "def destroy\n  delete\nend\n",
        );
    g.git(&["rm", "-q", "-r", "packages/jobs"]);
    g.write("packages/shell/src/index.ts", "export const shell = 2\n")
        .write("packages/shell/src/main.ts", "run(process.argv)\n");
    g.commit_at(
        "2020-07-01T10:00:00Z",
        "Cy",
        "Replace the console with a shell",
    );
    for args in [&["check", "--json"][..], &["check", "--json", "--no-index"]] {
        let j: Value = g.run(args).json();
        let mut got = moved_and_gone(&j);
        got.sort();
        assert_eq!(got.len(), 3, "{args:?}: {got:?}");
        assert_eq!(got[0].0, "governed-path-gone", "{got:?}");
        assert!(got[0].1.contains("`packages/console`"), "{got:?}");
        assert_eq!(got[1].0, "governed-path-gone", "{got:?}");
        assert!(got[1].1.contains("`packages/jobs`"), "{got:?}");
        assert_eq!(
            got[2],
            ("governed-path-moved".to_string(), "ADR-0003 names `packages/command-bus`, which git shows renamed to `packages/message-dispatch`: update the path in the record".to_string()),
            "{args:?}"
        );
    }
}
