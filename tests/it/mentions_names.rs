//! Names that are right (docs/mentions.md, ADR-0017's amendment of 2026-12-05), through the
//! binary: a bare top-level folder or a common word names nothing, a method names its class's
//! file, a product the title names the one file or folder of its name, a two-letter name in
//! backticks the folder of the kind the prose calls it, and what `scope --accept` takes is
//! what is sure.

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

/// `(term, path)` of each code mention of the record `id`, as `check --json` lists them.
fn mentions(g: &GitRepo, id: &str) -> Vec<(String, String)> {
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

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The ids `why --json PATH` lists under `query.mentioned_by`.
fn mentioned_by(g: &GitRepo, path: &str) -> Vec<String> {
    let j: Value = g.run(&["why", path, "--json"]).json();
    j["query"]["mentioned_by"]
        .as_array()
        .unwrap_or_else(|| panic!("no mentioned_by in {j:#}"))
        .iter()
        .map(|m| m["id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn a_bare_top_level_folder_or_common_word_names_nothing_unless_written_as_code() {
    let g = repo(&[
        (
            "docs/adr/0002-payment-retries.md",
            "# 2. Retry payments twice\n\nStatus: Accepted\n\nThe connector retries a payment \
             twice, and the webhook answers at once.\nEach retry is logged in the database.\n",
        ),
        (
            "docs/adr/0003-store-tokens.md",
            "# 3. Store tokens\n\nStatus: Accepted\n\nTokens live in PostgreSQL; PostgreSQL \
             encrypts them at rest.\nThe `webhook` reads them through the `database` layer.\n",
        ),
        ("connector/package.json", "{}\n"),
        ("connector/src/retry.js", "// retry\n"),
        ("webhook/package.json", "{}\n"),
        ("webhook/src/handler.js", "// handler\n"),
        ("connector/src/database/pool.js", "// pool\n"),
        ("resources/licenses/json/PostgreSQL.json", "{}\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0002"),
        pairs(&[]),
        "`connector/` and `webhook/` are top-level folders named in passing; `database` a \
         common word"
    );
    assert_eq!(
        mentions(&g, "ADR-0003"),
        pairs(&[
            ("database", "connector/src/database/"),
            ("webhook", "webhook/"),
        ]),
        "written as code, a top-level folder is named, a common word only by a distinctive \
         path; \"PostgreSQL\" is no licence's data file"
    );
    assert_eq!(mentioned_by(&g, "webhook/src/handler.js"), ["ADR-0003"]);
    assert!(mentioned_by(&g, "resources/licenses/json/PostgreSQL.json").is_empty());
}

#[test]
fn a_method_of_a_class_names_the_class_file() {
    let g = repo(&[
        (
            "docs/adr/0004-sign-in.md",
            "# 4. Sign in with short tokens\n\nStatus: Accepted\n\n\
             `LoginController.IssueToken` signs each token for an hour.\n\
             Refreshing goes through RefreshTokensController#update.\n",
        ),
        (
            "src/Web/Controllers/LoginController.cs",
            "class LoginController {}\n",
        ),
        (
            "app/controllers/refresh_tokens_controller.rb",
            "class RefreshTokensController; end\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0004"),
        pairs(&[
            (
                "LoginController.IssueToken",
                "src/Web/Controllers/LoginController.cs"
            ),
            (
                "RefreshTokensController#update",
                "app/controllers/refresh_tokens_controller.rb"
            ),
        ])
    );
    assert_eq!(
        mentioned_by(&g, "src/Web/Controllers/LoginController.cs"),
        ["ADR-0004"]
    );
    // Sure enough to accept: `scope --accept` writes both.
    let run = g.run(&["scope", "4", "--accept", "--dry-run", "--json"]);
    run.assert_code(0);
    assert_eq!(
        run.json()["scope"]["added"],
        serde_json::json!([
            "src/Web/Controllers/LoginController.cs",
            "app/controllers/refresh_tokens_controller.rb"
        ])
    );
}

#[test]
fn a_product_the_title_names_and_a_short_name_of_a_kind_name_their_code() {
    let g = repo(&[
        (
            "docs/adr/0005-use-keycloak.md",
            "# 5. Use Keycloak IdP for sign-in\n\nStatus: Accepted\n\nTokens last an hour.\n",
        ),
        (
            "docs/adr/0006-admission.md",
            "# 6. Adopt OPA Kyverno\n\nStatus: Accepted\n\nPolicies are checked at admission.\n",
        ),
        (
            "docs/adr/0007-state.md",
            "# 7. Keep state remotely\n\nStatus: Accepted\n\nThe `pg` driver keeps the state.\n",
        ),
        ("infra/cluster/keycloak.tf", "resource \"x\" \"y\" {}\n"),
        ("infra/cluster/kyverno.tf", "resource \"x\" \"y\" {}\n"),
        (
            "infra/cluster/modules/kyverno/main.tf",
            "resource \"x\" \"y\" {}\n",
        ),
        ("infra/cluster/main.tf", "resource \"x\" \"y\" {}\n"),
        ("internal/store/drivers/pg/client.go", "package pg\n"),
        ("internal/store/drivers/pg/driver.go", "package pg\n"),
        ("internal/store/drivers/s3/client.go", "package s3\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0005"),
        pairs(&[("Keycloak", "infra/cluster/keycloak.tf")])
    );
    assert_eq!(
        mentions(&g, "ADR-0006"),
        pairs(&[("Kyverno", "infra/cluster/kyverno.tf")]),
        "the file over the module beneath it"
    );
    assert_eq!(
        mentions(&g, "ADR-0007"),
        pairs(&[("pg", "internal/store/drivers/pg/")])
    );
    assert_eq!(
        mentioned_by(&g, "internal/store/drivers/pg/client.go"),
        ["ADR-0007"]
    );
    // A product's name is a guess: shown, never accepted.
    let run = g.run(&["scope", "5", "--accept", "--dry-run", "--json"]);
    run.assert_code(0);
    assert_eq!(run.json()["scope"]["added"], serde_json::json!([]));
}

#[test]
fn a_name_matched_in_another_style_is_shown_but_not_accepted() {
    let g = repo(&[
        (
            "docs/adr/0008-events.md",
            "# 8. Publish events once\n\nStatus: Accepted\n\nThe `event-publisher` service \
             sends them through the `EventQueue`.\n",
        ),
        (
            "svc/src/main/java/org/x/EventPublisher.java",
            "class EventPublisher {}\n",
        ),
        (
            "svc/src/main/java/org/x/EventQueue.java",
            "class EventQueue {}\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0008"),
        pairs(&[
            (
                "event-publisher",
                "svc/src/main/java/org/x/EventPublisher.java"
            ),
            ("EventQueue", "svc/src/main/java/org/x/EventQueue.java"),
        ])
    );
    let run = g.run(&["scope", "8", "--accept", "--dry-run", "--json"]);
    run.assert_code(0);
    assert_eq!(
        run.json()["scope"]["added"],
        serde_json::json!(["svc/src/main/java/org/x/EventQueue.java"]),
        "a hyphenated service's name is not the CamelCase class: below 0.8"
    );
}

/// A feature-sliced app's `src/lib/features/` is code, though a top-level `features/` is
/// Cucumber's or Behat's specs: a class the record names is found in the one and not the
/// other (Unleash's `FrontendApiRepository`).
#[test]
fn a_features_folder_under_a_source_root_is_code() {
    let g = repo(&[
        (
            "docs/adr/0001-frontend-api.md",
            "# 1. Frontend API design\n\nStatus: Accepted\n\nWe swap the proxy repository for a \
             FrontendApiRepository, and the steps in CheckoutSteps stay as they are.\n",
        ),
        (
            "src/lib/features/frontend-api/frontend-api-repository.ts",
            "export class X {}\n",
        ),
        (
            "features/step_definitions/checkout-steps.js",
            "module.exports = {};\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0001"),
        pairs(&[(
            "FrontendApiRepository",
            "src/lib/features/frontend-api/frontend-api-repository.ts"
        )])
    );
}

/// A module's path written with dots, as Haskell writes it, names the file whose folders and
/// name spell it (hydra's `Hydra.Ledger.Cardano`), not the file of its first or last part.
#[test]
fn a_dotted_module_path_names_the_file_it_spells() {
    let g = repo(&[
        (
            "docs/adr/0011-use-cardano-api.md",
            "# 11. Use cardano-api\n\nStatus: Accepted\n\nUse cardano-api types instead of custom \
             ones in the `Hydra.Ledger.Cardano` component.\n",
        ),
        (
            "hydra-node/src/Hydra/Ledger/Cardano.hs",
            "module Hydra.Ledger.Cardano where\n",
        ),
        (
            "hydra-node/src/Hydra/Ledger.hs",
            "module Hydra.Ledger where\n",
        ),
        (
            "hydra-node/src/Hydra/Ledger/Cardano/Builder.hs",
            "module Hydra.Ledger.Cardano.Builder where\n",
        ),
        (
            "hydra-node/src/Hydra/Chain/Cardano.hs",
            "module Hydra.Chain.Cardano where\n",
        ),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0011"),
        pairs(&[(
            "Hydra.Ledger.Cardano",
            "hydra-node/src/Hydra/Ledger/Cardano.hs"
        )])
    );
}

#[test]
fn a_dotted_module_path_and_a_member_name_the_modules_file() {
    // opensafely-core/job-server's record 6: "using a CharField with
    // `jobserver.models.common.new_ulid_str` as the default": the module's file, not a file
    // called `common.new_ulid_str` (issue 36).
    let g = repo(&[
        (
            "docs/adr/0006-string-ulids.md",
            "# 6. Use string ULIDs for ids\n\nStatus: Accepted\n\nUse a CharField with \
             `jobserver.models.common.new_ulid_str` as the default, and read the settings \
             from `config.local.settings.json`.\n",
        ),
        ("jobserver/models/common.py", "def new_ulid_str(): pass\n"),
        ("jobserver/models/job.py", "class Job: pass\n"),
        ("other/models/common.py", "x = 1\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0006"),
        pairs(&[(
            "jobserver.models.common.new_ulid_str",
            "jobserver/models/common.py"
        )])
    );
    assert_eq!(mentioned_by(&g, "jobserver/models/common.py"), ["ADR-0006"]);
}

#[test]
fn a_capitalised_name_called_a_model_names_the_file_defining_it() {
    // opensafely-core/job-server's record 19: "We will create a Redirect model with mutually
    // exclusive ForeignKeys": Django's `class Redirect` in `redirects/models.py` (issue 36).
    let g = repo(&[
        (
            "docs/adr/0019-redirects.md",
            "# 19. Redirects\n\nStatus: Accepted\n\nWe will create a Redirect model with \
             mutually exclusive foreign keys, matched by a middleware.\n",
        ),
        (
            "redirects/models.py",
            "from django.db import models\n\n\nclass Redirect(models.Model):\n    pass\n",
        ),
        ("redirects/views.py", "def show(request):\n    pass\n"),
    ]);
    assert_eq!(
        mentions(&g, "ADR-0019"),
        pairs(&[("Redirect", "redirects/models.py")])
    );
}
