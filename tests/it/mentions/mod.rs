//! Code mentions (docs/mentions.md, ADR-0017): the code a record's prose names without
//! governing it, in Rails, Go, TypeScript and Terraform shapes; `why`'s `mentioned_by`,
//! `record`'s section, and mentions never governing (no finding, no drift).

use crate::git::GitRepo;
use serde_json::Value;

pub(super) const DATE: &str = "2025-03-05T10:00:00Z";

/// A repository holding `files`, committed.
pub(super) fn repo(files: &[(&str, &str)]) -> GitRepo {
    let g = GitRepo::new();
    for (path, body) in files {
        g.write(path, body);
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

/// [`repo`] of files held as owned strings (a test that builds its list step by step).
pub(super) fn repo_owned(files: &[(String, String)]) -> GitRepo {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    repo(&refs)
}

pub(super) fn json(g: &GitRepo, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let run = g.run(&all);
    run.assert_finished();
    run.json()
}

/// `(term, path)` of each code mention of the record `id` in the full check.
pub(super) fn mentions(g: &GitRepo, id: &str) -> Vec<(String, String)> {
    g.code_mentions(id)
        .iter()
        .map(|m| {
            (
                m["term"].as_str().unwrap_or("").to_string(),
                m["path"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

pub(super) fn rails() -> GitRepo {
    repo(&[
        (
            "docs/adr/0001-sessions-over-tokens.md",
            "# 1. Sessions over tokens\n\nStatus: Accepted\n\n## Context\n\nThe AuthenticationController signs people in; the session_store keeps them.\nWe keep the Rails defaults.\n\n## Decision\n\nUse server sessions.\n",
        ),
        ("app/controllers/authentication_controller.rb", "class AuthenticationController; end\n"),
        ("app/models/user.rb", "class User; end\n"),
        ("config/initializers/session_store.rb", "# sessions\n"),
        ("Gemfile", "source 'https://rubygems.org'\n"),
    ])
}

#[test]
fn a_rails_class_and_a_snake_case_file_are_mentions() {
    let g = rails();
    assert_eq!(
        mentions(&g, "ADR-0001"),
        [
            (
                "AuthenticationController".to_string(),
                "app/controllers/authentication_controller.rb".to_string()
            ),
            (
                "session_store".to_string(),
                "config/initializers/session_store.rb".to_string()
            ),
        ]
    );
}

#[test]
fn why_lists_the_record_that_mentions_a_path_and_it_never_governs() {
    let g = rails();
    let j = json(&g, &["why", "app/controllers/authentication_controller.rb"]);
    assert_eq!(j["query"]["decisions"], serde_json::json!([]));
    assert_eq!(
        j["query"]["mentioned_by"],
        serde_json::json!([{"id": "ADR-0001", "status": "accepted", "term": "AuthenticationController", "line": 7, "path": "app/controllers/authentication_controller.rb"}])
    );
    // A folder above the mentioned file lists it too.
    let j = json(&g, &["why", "app/controllers"]);
    assert_eq!(j["query"]["mentioned_by"][0]["id"], "ADR-0001");
    let md = g.run(&["why", "app/controllers/authentication_controller.rb"]);
    assert!(
        md.stdout().contains(
            "- Mentioned by ADR-0001 (line 7: `AuthenticationController`); not a declared scope"
        ),
        "{}",
        md.stdout()
    );
    // Never governs: no finding names the mentioned path, and `record` shows it apart.
    let j = json(&g, &[]);
    assert_eq!(j["findings"], serde_json::json!([]));
    assert_eq!(j["records"][0]["governs"], serde_json::json!([]));
    let md = g.run(&["record", "ADR-0001"]).stdout();
    assert!(md.contains("## Mentions not in its scope"), "{md}");
    assert!(
        md.contains(
            "- `app/controllers/authentication_controller.rb`: line 7, `AuthenticationController`"
        ),
        "{md}"
    );
}

#[test]
fn answers_are_the_same_with_and_without_the_index() {
    let g = rails();
    for args in [
        &["--json"][..],
        &["why", "config/initializers", "--json"],
        &["record", "ADR-0001", "--json"],
    ] {
        let indexed = g.run(args).stdout();
        let again = g.run(args).stdout(); // from the memo
        let mut fresh = args.to_vec();
        fresh.push("--no-index");
        assert_eq!(indexed, g.run(&fresh).stdout(), "{args:?}");
        assert_eq!(indexed, again, "{args:?}");
    }
    // A new tracked file changes the mentions, and the index sees it.
    g.write("app/services/session_refresher.rb", "# refresh\n");
    g.write(
        "docs/adr/0001-sessions-over-tokens.md",
        "# 1. Sessions over tokens\n\nStatus: Accepted\n\nThe SessionRefresher renews them.\n",
    );
    g.commit_at(DATE, "Ann", "refresher");
    g.run(&["--json"]);
    g.write("app/services/token_cleaner.rb", "# clean\n");
    g.write(
        "docs/adr/0002-cleanup.md",
        "# 2. Cleanup\n\nStatus: Accepted\n\nThe TokenCleaner runs nightly.\n",
    );
    g.git(&["add", "-A"]);
    let indexed = g.run(&["--json"]).stdout();
    assert!(
        indexed.contains("app/services/token_cleaner.rb"),
        "{indexed}"
    );
    assert_eq!(indexed, g.run(&["--json", "--no-index"]).stdout());
}

#[test]
fn go_packages_and_qualified_names() {
    let g = repo(&[
        (
            "docs/adr/0003-retry-policy.md",
            "# 3. Retry policy\n\nStatus: Accepted\n\nCalls through `retry.Do` in the backoff package; the httpclient::Transport wraps it.\nA `ledger.Posting` is checked with `errors.As`.\n",
        ),
        ("go.mod", "module example.com/x\n"),
        ("internal/backoff/backoff.go", "package backoff\n"),
        ("internal/backoff/backoff_test.go", "package backoff\n"),
        ("internal/httpclient/transport.go", "package httpclient\n"),
        ("internal/retry/do.go", "package retry\n"),
        ("pkg/ledger/book.go", "package ledger\n"),
        ("pkg/errors/errors.go", "package errors\n"),
    ]);
    let found = mentions(&g, "ADR-0003");
    // `retry.Do` is Go's name of package retry's `Do`: its file `do.go` in the one Go package
    // of that name (ADR-0017, fourth amendment). `ledger.Posting` has no file of its own: the
    // package. `errors.As` is the standard library's, not `pkg/errors/`.
    // `httpclient::Transport` is a qualified name. `backoff` alone would be a bare word naming
    // no top-level folder or package (a folder in `internal/` is a module named by a common
    // word, unlike one in Rails' `app/`), but "the backoff package" says it is one: the Go
    // package of that name (ADR-0017, sixth amendment).
    assert_eq!(
        found,
        [
            ("backoff".to_string(), "internal/backoff/".to_string()),
            (
                "httpclient::Transport".to_string(),
                "internal/httpclient/transport.go".to_string()
            ),
            ("retry.Do".to_string(), "internal/retry/do.go".to_string()),
            ("ledger.Posting".to_string(), "pkg/ledger/".to_string()),
        ]
    );
}

#[test]
fn a_dotted_member_outside_go_is_no_term() {
    // No Go package named `agent`: `agent.Id` in backticks is a variable's member, and the
    // C# file `AgentId.cs` is not what it names.
    let g = repo(&[
        (
            "docs/adr/0004-agent-runs.md",
            "# 4. Agent runs\n\nStatus: Accepted\n\nA run is keyed by `agent.Id` and the thread.\n",
        ),
        ("src/Agents/AgentId.cs", "class AgentId {}\n"),
        ("src/agent/Runner.cs", "class Runner {}\n"),
    ]);
    assert_eq!(mentions(&g, "ADR-0004"), Vec::<(String, String)>::new());
}

#[test]
fn links_into_the_repositorys_own_code_are_mentions() {
    let record = "# 5. Ledger posting\n\nStatus: Accepted\n\n\
The [posting code](https://github.com/acme-co/ledger/blob/4f2a9c1/pkg/ledger/book.go#L12) \
and [its folder](https://github.com/acme-co/ledger/tree/release/2.1/pkg/ledger) stay.\n\
Upstream's [book.go](https://github.com/other-org/bookkeeper/blob/main/pkg/ledger/book.go) \
differs; the [readme](https://github.com/acme-co/ledger/blob/main/README.md) too.\n";
    // `origin`'s URL, when given, is set before the first answer: a change of the remote
    // alone is seen at the next change of the records or the tracked paths (README).
    let with_origin = |origin: Option<&str>| {
        let g = GitRepo::new();
        g.write("docs/adr/0005-ledger-posting.md", record);
        g.write("pkg/ledger/book.go", "package ledger\n");
        g.write("pkg/ledger/entry.go", "package ledger\n");
        g.write("README.md", "# ledger\n");
        g.commit_at(DATE, "Ann", "initial");
        if let Some(url) = origin {
            g.git(&["remote", "add", "origin", url]);
        }
        g
    };
    let paths = |g: &GitRepo| -> Vec<String> {
        mentions(g, "ADR-0005")
            .into_iter()
            .map(|(_, path)| path)
            .collect()
    };
    // Without a remote every link is taken as into this repository; a top-level file
    // (`README.md`) is any repository's, never taken.
    assert_eq!(
        paths(&with_origin(None)),
        ["pkg/ledger/", "pkg/ledger/book.go"]
    );
    // With `origin` on a forge, a link into another repository names nothing here, and the
    // term is the link as written.
    let g = with_origin(Some("git@github.com:acme-co/ledger.git"));
    assert_eq!(
        mentions(&g, "ADR-0005"),
        [
            (
                "https://github.com/acme-co/ledger/tree/release/2.1/pkg/ledger".to_string(),
                "pkg/ledger/".to_string()
            ),
            (
                "https://github.com/acme-co/ledger/blob/4f2a9c1/pkg/ledger/book.go".to_string(),
                "pkg/ledger/book.go".to_string()
            ),
        ]
    );
    let g = with_origin(Some("https://github.com/other-org/bookkeeper"));
    assert_eq!(paths(&g), ["pkg/ledger/book.go"]);
    assert_eq!(
        mentions(&g, "ADR-0005")[0].0,
        "https://github.com/other-org/bookkeeper/blob/main/pkg/ledger/book.go"
    );
}

#[test]
fn typescript_kebab_packages_and_a_term_that_is_also_a_folder() {
    let g = repo(&[
        (
            "docs/adr/0004-config-loading.md",
            "# 4. Config loading\n\nStatus: Accepted\n\nThe adr-config package reads it; the `billing` module and the UserProfile view use it.\n\n```ts\nimport { LegacyLoader } from 'legacy-loader'\n```\n",
        ),
        ("src/adr-config/index.ts", "export {}\n"),
        ("src/adr-config/package.json", "{}\n"),
        ("src/billing/billing.ts", "export {}\n"),
        ("src/billing/invoice.ts", "export {}\n"),
        ("src/views/UserProfile.tsx", "export {}\n"),
        ("src/legacy-loader/LegacyLoader.ts", "export {}\n"),
    ]);
    let found = mentions(&g, "ADR-0004");
    assert_eq!(
        found,
        [
            ("adr-config".to_string(), "src/adr-config/".to_string()),
            ("billing".to_string(), "src/billing/".to_string()),
            (
                "UserProfile".to_string(),
                "src/views/UserProfile.tsx".to_string()
            ),
        ],
        "the fenced block's names are examples, and `billing` names the folder, not billing.ts"
    );
}

#[test]
fn terraform_modules_bare_names_and_stop_words() {
    let g = repo(&[
        (
            "docs/adr/0005-dns.md",
            "# 5. DNS\n\nStatus: Accepted\n\nWe run external-dns beside the networking module.\nThe config and the docs and the modules stay as they are; see foo_bar and my-app.\n",
        ),
        ("charts/external-dns/Chart.yaml", "name: external-dns\n"),
        ("networking/main.tf", "# vpc\n"),
        ("config/dns.tf", "# dns\n"),
        ("modules/foo_bar/main.tf", "#\n"),
        ("modules/my-app/main.tf", "#\n"),
        ("docs/README.md", "docs\n"),
    ]);
    let found = mentions(&g, "ADR-0005");
    assert_eq!(
        found,
        [(
            "external-dns".to_string(),
            "charts/external-dns/".to_string()
        ),],
        "a package by its name; a top-level folder is not named by a bare word \
         (`networking`, ADR-0017's amendment of 2026-12-05)"
    );
}

#[test]
fn a_term_naming_too_many_paths_is_ambiguous_and_dropped() {
    let g = repo(&[
        (
            "docs/adr/0006-handlers.md",
            "# 6. Handlers\n\nStatus: Accepted\n\nEvery request_handler logs, and the PaymentGateway retries.\n",
        ),
        ("a/request_handler.py", "#\n"),
        ("b/request_handler.py", "#\n"),
        ("c/request_handler.py", "#\n"),
        ("d/request_handler.py", "#\n"),
        ("pay/payment_gateway.py", "#\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0006"),
        [(
            "PaymentGateway".to_string(),
            "pay/payment_gateway.py".to_string()
        )]
    );
}

#[test]
fn what_a_record_governs_is_not_a_mention() {
    let g = repo(&[
        (
            "docs/adr/0007-payments.md",
            "# 7. Payments\n\nStatus: Accepted\n\nThe PaymentGateway in `pay/` retries; the LedgerWriter records.\n",
        ),
        ("pay/payment_gateway.py", "#\n"),
        ("ledger/ledger_writer.py", "#\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0007"),
        [(
            "LedgerWriter".to_string(),
            "ledger/ledger_writer.py".to_string()
        )]
    );
    // A mentioned path is never a governed one: no warning-carrying decision for it.
    let j = json(&g, &["why", "ledger/ledger_writer.py"]);
    assert_eq!(j["query"]["decisions"], serde_json::json!([]));
    assert_eq!(j["query"]["mentioned_by"][0]["term"], "LedgerWriter");
}

#[test]
fn a_mentioned_path_is_never_reviewed_or_drifting() {
    let g = rails();
    g.write(
        "app/controllers/authentication_controller.rb",
        "class AuthenticationController; def x; end; end\n",
    );
    g.commit_at("2025-04-01T10:00:00Z", "Bob", "Change sign-in");
    let run = g.run(&["review", "HEAD~1..HEAD", "--strict", "--json"]);
    run.assert_code(0);
    let doc = run.json();
    assert_eq!(doc["query"]["decisions"], serde_json::json!([]));
    assert_eq!(doc["query"]["uncited"], serde_json::json!([]));
    let j = json(&g, &["--git"]);
    let drift = &j["records"][0]["drift"];
    assert!(drift.is_null() || drift["count"] == 0, "{drift:#}");
    assert_eq!(
        j["records"][0]["code_mentions"][0]["term"],
        "AuthenticationController"
    );
}

#[test]
fn of_two_ports_of_a_class_the_titles_language_or_the_name_as_written_is_meant() {
    let g = repo(&[
        (
            "docs/decisions/0001-invoice-totals.md",
            "# 1. Invoice totals\n\nStatus: Accepted\n\nThe `InvoiceTotal` class rounds once.\n",
        ),
        (
            "docs/decisions/0002-python-rounding.md",
            "# 2. Rounding in the Python port\n\nStatus: Accepted\n\nThe `InvoiceTotal` class \
             rounds half to even.\n",
        ),
        (
            "dotnet/src/Billing/InvoiceTotal.cs",
            "class InvoiceTotal {}\n",
        ),
        (
            "python/billing/invoice_total.py",
            "class InvoiceTotal: pass\n",
        ),
    ]);
    assert_eq!(
        mentions_sure(&g, "ADR-0001"),
        [(
            "InvoiceTotal".to_string(),
            "dotnet/src/Billing/InvoiceTotal.cs".to_string(),
            0.9
        )],
        "the file named exactly as the record writes the class"
    );
    let python: Vec<(String, String, f64)> = mentions_sure(&g, "ADR-0002")
        .into_iter()
        .filter(|m| m.0 == "InvoiceTotal")
        .collect();
    assert_eq!(
        python,
        [(
            "InvoiceTotal".to_string(),
            "python/billing/invoice_total.py".to_string(),
            0.9
        )],
        "the title names the top-level folder `python/`"
    );
}

/// The title's phrase names the folder its words run together spell (`server/deeplinks/` of
/// "Deep Links", over a file of the words apart); a phrase of the body, said twice, does not
/// (`pkg/failurerecovery/` of "failure recovery": the words run together named unrelated
/// files more often than not).
#[test]
fn a_title_phrase_names_the_folder_of_its_words_run_together() {
    let g = repo(&[
        (
            "docs/adr/0001-deep-links.md",
            "# 1. Deep Links\n\nStatus: Accepted\n\nLet users jump from an application to \
             their own dashboards. On failure recovery we keep the last link; failure \
             recovery is out of scope otherwise.\n",
        ),
        ("server/deeplinks/deeplinks.go", "package deeplinks\n"),
        ("ui/components/deep-links.tsx", "export {}\n"),
        (
            "pkg/failurerecovery/recover.go",
            "package failurerecovery\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0001"),
        [("Deep Links".to_string(), "server/deeplinks/".to_string())]
    );
}

mod phrases;
use phrases::mentions_sure;
