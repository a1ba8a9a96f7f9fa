//! Code mentions (CONTRACT.md §11, ADR-0017): the code a record's prose names without
//! governing it, in Rails, Go, TypeScript and Terraform shapes; `why`'s `mentioned_by`,
//! `record`'s section, and mentions never governing (no finding, no drift).

use crate::git::GitRepo;
use serde_json::Value;

const DATE: &str = "2025-03-05T10:00:00Z";

/// A repository holding `files`, committed.
fn repo(files: &[(&str, &str)]) -> GitRepo {
    let g = GitRepo::new();
    for (path, body) in files {
        g.write(path, body);
    }
    g.commit_at(DATE, "Ann", "initial");
    g
}

fn json(g: &GitRepo, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let run = g.run(&all);
    run.assert_finished();
    run.json()
}

/// `(term, path)` of each code mention of the record `id` in the full check.
fn mentions(g: &GitRepo, id: &str) -> Vec<(String, String)> {
    let j = json(g, &[]);
    let r = j["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id} in {j:#}"))
        .clone();
    r["code_mentions"]
        .as_array()
        .expect("code_mentions")
        .iter()
        .map(|m| {
            (
                m["term"].as_str().unwrap_or("").to_string(),
                m["path"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn rails() -> GitRepo {
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
            "# 3. Retry policy\n\nStatus: Accepted\n\nCalls through `retry.Do` in the backoff package; the httpclient::Transport wraps it.\n",
        ),
        ("go.mod", "module example.com/x\n"),
        ("internal/backoff/backoff.go", "package backoff\n"),
        ("internal/backoff/backoff_test.go", "package backoff\n"),
        ("internal/httpclient/transport.go", "package httpclient\n"),
        ("internal/retry/do.go", "package retry\n"),
    ]);
    let found = mentions(&g, "ADR-0003");
    // `retry.Do` is written like a path in backticks: a path, not a term. `httpclient::Transport`
    // is a qualified name; `backoff` a bare word naming no top-level folder or package.
    assert_eq!(
        found,
        [(
            "httpclient::Transport".to_string(),
            "internal/httpclient/transport.go".to_string()
        )]
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
        [
            (
                "external-dns".to_string(),
                "charts/external-dns/".to_string()
            ),
            ("networking".to_string(), "networking/".to_string()),
        ]
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
