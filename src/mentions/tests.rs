use super::definitions::{definitions_in, named_by_its_file};
use super::*;
use crate::text::terms::singular;
use std::collections::HashSet;

fn t(text: &str) -> Vec<(String, Kind)> {
    let lines: Vec<(usize, &str)> = text.split('\n').enumerate().collect();
    terms(&lines, "Use a thing", 0)
        .into_iter()
        .map(|t| (t.text, t.kind))
        .collect()
}

#[test]
fn reads_identifiers_backticks_and_words() {
    let found = t(
        "The AuthenticationController and external-dns, see `billing` and \
billing::invoice::Total or app.services.Billing; e.g. http://x.io/FooBar `src/a.rs` ADR HTTP.",
    );
    let names: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
    assert!(names.contains(&"AuthenticationController"), "{names:?}");
    assert!(names.contains(&"external-dns"));
    assert!(names.contains(&"billing"));
    assert!(names.contains(&"billing::invoice::Total"));
    assert!(names.contains(&"app.services.Billing"));
    assert!(!names
        .iter()
        .any(|n| n.contains("FooBar") || *n == "e.g" || *n == "ADR"));
    assert!(!names.contains(&"src/a.rs"));
    assert!(!names.contains(&"The") && !names.contains(&"and"));
}

#[test]
fn title_words_and_placeholders_are_not_terms() {
    let found = t("thing my-app foo_bar `foo` well-known");
    // The title's word is said (counted once, for the vocabulary), never a term that
    // names code (docs/mentions.md: the record's title words are not terms).
    assert_eq!(found, [("thing".to_string(), Kind::Once)]);
}

#[test]
fn resolves_style_insensitively_and_drops_ambiguity() {
    let names = Names::new([
        "app/controllers/authentication_controller.rb",
        "charts/external-dns/Chart.yaml",
        "src/adr-config/index.ts",
        "a/x/util_thing.go",
        "b/x/util_thing.go",
        "c/x/util_thing.go",
        "d/x/util_thing.go",
    ]);
    let term = |text: &str, kind| Term {
        text: text.into(),
        line: 3,
        kind,
        nouns: Vec::new(),
        coded: 0,
    };
    let got = names.resolve(
        &[
            term("AuthenticationController", Kind::Identifier),
            term("external_dns", Kind::Identifier),
            term("AdrConfig", Kind::Identifier),
            term("UtilThing", Kind::Identifier),
        ],
        &[],
        &[],
    );
    let paths: Vec<&str> = got.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "app/controllers/authentication_controller.rb",
            "charts/external-dns/",
            "src/adr-config/"
        ]
    );
    // Governed paths are not repeated.
    let got = names.resolve(
        &[term("external-dns", Kind::Identifier)],
        &["charts/".into()],
        &[],
    );
    assert!(got.is_empty());
}

#[test]
fn plurals_fold_to_the_singular() {
    assert_eq!(singular("worldwideorganisations"), "worldwideorganisation");
    assert_eq!(singular("policies"), "policy");
    assert_eq!(singular("classes"), "class");
    for kept in ["status", "analysis", "access", "instance"] {
        assert_eq!(singular(kept), kept);
    }
}

#[test]
fn phrases_joined_names_and_families_resolve() {
    let names = Names::new([
        "app/models/worldwide_organisation.rb",
        "app/views/worldwide_organisations/index.erb",
        "app/validators/govspeak_validator.rb",
        "lib/whitehall/url.rb",
        "terraform/userdata/00-base",
        "terraform/modules/node_group/user_data.sh",
        "projects/infra-security-groups/main.tf",
        "projects/infra-vpc/main.tf",
        "projects/infra-dns/main.tf",
        "tests/error_message.rb",
    ]);
    let term = |text: &str, kind| Term {
        text: text.into(),
        line: 1,
        kind,
        nouns: Vec::new(),
        coded: 0,
    };
    let got = |t: Term| -> Vec<(String, f64)> {
        names
            .resolve(&[t], &[], &[])
            .into_iter()
            .map(|m| (m.path, m.confidence))
            .collect()
    };
    assert_eq!(
        got(term("Worldwide Organisations", Kind::Phrase)),
        [("app/models/worldwide_organisation.rb".to_string(), 0.6)]
    );
    assert_eq!(
        got(term("security groups", Kind::Phrase)),
        [("projects/infra-security-groups/".to_string(), 0.6)]
    );
    assert!(
        got(term("error messages", Kind::Phrase)).is_empty(),
        "a test"
    );
    // A bare word is not the name of a folder as good as top-level (ADR-0017's amendment of
    // 2026-12-05); written as code it is.
    assert!(got(term("validators", Kind::Word)).is_empty(), "bare");
    assert_eq!(
        got(term("validators", Kind::Code)),
        [("app/validators/".to_string(), 0.7)]
    );
    assert!(
        got(term("whitehall", Kind::Word)).is_empty(),
        "lib/<project>/"
    );
    // Joined: snake_case names the one-word folder, less sure; kebab-case does not.
    assert_eq!(
        got(term("user_data", Kind::Identifier)),
        [("terraform/userdata/".to_string(), 0.7)]
    );
    assert!(got(term("user-data", Kind::Identifier))
        .iter()
        .all(|(p, _)| p != "terraform/userdata/"));
}

#[test]
fn the_vocabulary_is_what_three_records_and_a_tenth_of_them_say() {
    let term = |text: &str, kind| Term {
        text: text.into(),
        line: 1,
        kind,
        nouns: Vec::new(),
        coded: 0,
    };
    let mut each: Vec<Vec<Term>> = (0..40).map(|_| Vec::new()).collect();
    for terms in each.iter_mut().take(5) {
        terms.push(term("time series", Kind::Once));
        terms.push(term("TimeSeries", Kind::Identifier));
    }
    for terms in each.iter_mut().take(3) {
        terms.push(term("schemas", Kind::Word));
    }
    let v = Vocabulary::new(each.iter().map(Vec::as_slice));
    assert!(v.holds(&term("Time Series", Kind::Phrase)), "5 of 40");
    assert!(
        !v.holds(&term("schema", Kind::Code)),
        "4 of 40 is less than an eighth"
    );
    assert!(
        !v.holds(&term("TimeSeries", Kind::Identifier)),
        "a compound name"
    );
    let v = Vocabulary::new(each.iter().take(12).map(Vec::as_slice));
    assert!(
        v.holds(&term("schema", Kind::Code)),
        "4 of 12, plural folded"
    );
    assert!(
        v.ordinary(&term("Schemas", Kind::Name)),
        "written in lower case"
    );
}

#[test]
fn definitions_are_read_at_a_lines_start_in_each_languages_shape() {
    let wanted: HashSet<&str> = ["Node", "Ledger", "Billing", "Widget", "Alias"]
        .into_iter()
        .collect();
    let got = |text: &str, path: &str| definitions_in(text.as_bytes(), path, &wanted);
    assert_eq!(
        got(
            "type Node struct {}\ntype Alias = other.Alias\n",
            "a/node.go"
        ),
        ["Node"],
        "a Go alias names another package's type"
    );
    assert_eq!(
        got(
            "pub(crate) struct Ledger;\n    struct Widget;\n",
            "a/ledger.rs"
        ),
        ["Ledger"],
        "an indented type is nested"
    );
    assert_eq!(
        got(
            "module Shop\n  class Billing < Base\n  end\nend\n",
            "app/billing.rb"
        ),
        ["Billing"],
        "Ruby's classes nest in modules"
    );
    assert_eq!(got("export abstract class Widget {}\n", "w.ts"), ["Widget"]);
    assert!(got("// the Node struct is central\n", "x.go").is_empty());
}

#[test]
fn a_definition_counts_in_a_file_named_by_a_word_of_the_type() {
    assert!(named_by_its_file(
        "ControllerConfig",
        "scraper/internal/controller/generated_config.go"
    ));
    assert!(named_by_its_file("RetryLogic", "src/sinks/util/retries.rs"));
    assert!(named_by_its_file(
        "Metric",
        "lib/core/src/event/metric/mod.rs"
    ));
    assert!(!named_by_its_file(
        "ConfigMap",
        "src/config/loading/representation.rs"
    ));
    assert!(!named_by_its_file(
        "Info",
        "components/fml/src/command_line/cli.rs"
    ));
}

#[test]
fn a_folder_holding_a_tenth_of_the_files_is_the_bulk() {
    let mut paths: Vec<String> = (0..120).map(|n| format!("python/kernel/f{n}.py")).collect();
    paths.extend((0..900).map(|n| format!("other/x{n}/a.rs")));
    paths.push("python/billing_rules/rules.py".into());
    let names = Names::new(paths.iter().map(String::as_str));
    let phrase = |text: &str| Term {
        text: text.into(),
        line: 1,
        kind: Kind::Phrase,
        nouns: Vec::new(),
        coded: 0,
    };
    assert!(names.resolve(&[phrase("Kernel")], &[], &[]).is_empty());
    assert_eq!(
        names.resolve(&[phrase("billing rules")], &[], &[])[0].path,
        "python/billing_rules/"
    );
}

/// `(path, confidence)` of each mention `terms` (read from `text`, titled `title`) make in
/// `names`.
fn read_and_resolve(names: &Names, title: &str, text: &str) -> Vec<(String, String, f64)> {
    let body = format!("# {title}\n\n{text}");
    let lines: Vec<(usize, &str)> = body.split('\n').enumerate().collect();
    let terms = terms(&lines, title, 0);
    names
        .resolve_with(&terms, &[], &[], &Vocabulary::default(), title)
        .into_iter()
        .map(|m| (m.term, m.path, m.confidence))
        .collect()
}

#[test]
fn a_top_level_folder_or_a_common_word_is_a_name_only_written_as_code() {
    let names = Names::new([
        "plugin/package.json",
        "plugin/src/index.js",
        "relay/package.json",
        "relay/src/index.js",
        "packages/ledger/package.json",
        "packages/ledger/src/index.js",
        "resources/licenses/json/PostgreSQL.json",
        "store/cache/lru.go",
        "store/cache/ttl.go",
    ]);
    // Bare: a top-level folder is not named (`plugin`, `relay`), a package is (`ledger`),
    // a common word names nothing (`PostgreSQL` said twice: a product's name).
    assert_eq!(
        read_and_resolve(
            &names,
            "Keep state apart",
            "The plugin calls the relay; the ledger keeps totals.\n\
             PostgreSQL stores them; PostgreSQL is backed up nightly.\nWe cache lookups.",
        ),
        [("ledger".into(), "packages/ledger/".into(), 0.6)]
    );
    // In backticks: a top-level folder is a name, a common word only of a distinctive
    // path (`cache` of `store/cache/`; not the top-level `plugin/` nor a licence's data).
    assert_eq!(
        read_and_resolve(
            &names,
            "Keep state apart",
            "The `relay` forwards to the `cache`; the `plugin` and `postgresql` stay.",
        ),
        [
            ("relay".into(), "relay/".into(), 0.7),
            ("cache".into(), "store/cache/".into(), 0.7),
        ]
    );
}

#[test]
fn a_method_names_the_file_of_its_class() {
    let names = Names::new([
        "src/Api/Controllers/SessionController.cs",
        "app/controllers/ledger_entries_controller.rb",
        "lib/Billing/InvoiceTotals.php",
        "lib/healthcheck/active_storage.rb",
    ]);
    let got = read_and_resolve(
        &names,
        "Sign in once",
        "`SessionController.SignIn` checks the token; LedgerEntriesController#create posts it.\n\
         Billing::InvoiceTotals::compute sums it; each ActiveStorage::Blob is Rails' own.",
    );
    assert_eq!(
        got,
        [
            (
                "LedgerEntriesController#create".into(),
                "app/controllers/ledger_entries_controller.rb".into(),
                0.9
            ),
            (
                "SessionController.SignIn".into(),
                "src/Api/Controllers/SessionController.cs".into(),
                0.9
            ),
            (
                "Billing::InvoiceTotals::compute".into(),
                "lib/Billing/InvoiceTotals.php".into(),
                0.9
            ),
        ],
        "after `::` a capitalised name is a nested module, not a method"
    );
}

#[test]
fn a_product_the_title_names_is_the_one_file_or_folder_of_its_name() {
    assert_eq!(
        crate::text::terms::title_products("Use Keycloak for sign-in"),
        ["Keycloak"]
    );
    assert_eq!(
        crate::text::terms::title_products("3. Adopt AWS Fargate"),
        ["Fargate"]
    );
    assert!(crate::text::terms::title_products("Table Compaction").is_empty());
    assert_eq!(
        crate::text::terms::title_products("Use Keycloak IdP for sign-in"),
        ["Keycloak", "IdP"]
    );
    assert!(crate::text::terms::title_products("Use PostgreSQL for storage").is_empty());
    let names = Names::new([
        "infra/cluster/keycloak.tf",
        "infra/cluster/main.tf",
        "infra/fargate/main.tf",
        "infra/fargate/task.tf",
        "a/zitadel.tf",
        "b/zitadel.tf",
    ]);
    assert_eq!(
        read_and_resolve(&names, "Use Keycloak for sign-in", "Tokens last an hour."),
        [("Keycloak".into(), "infra/cluster/keycloak.tf".into(), 0.5)]
    );
    assert_eq!(
        read_and_resolve(&names, "Adopt AWS Fargate", "Tasks run there."),
        [("Fargate".into(), "infra/fargate/".into(), 0.5)]
    );
    assert!(
        read_and_resolve(&names, "Use Zitadel for sign-in", "Tokens last an hour.").is_empty(),
        "two files of the name"
    );
}

#[test]
fn a_name_of_two_letters_in_backticks_names_the_folder_of_the_kind_the_prose_says() {
    let names = Names::new([
        "internal/store/drivers/pg/client.go",
        "internal/store/drivers/pg/driver.go",
        "internal/store/drivers/s3/client.go",
        "ui/pg/page.ts",
    ]);
    assert_eq!(
        read_and_resolve(&names, "Keep state", "The `pg` driver keeps the state."),
        [("pg".into(), "internal/store/drivers/pg/".into(), 0.7)]
    );
    assert!(
        read_and_resolve(&names, "Keep state", "The `pg` keeps the state.").is_empty(),
        "no kind said"
    );
}

#[test]
fn a_name_matched_across_styles_that_tell_things_apart_is_less_sure() {
    let names = Names::new([
        "svc/src/main/java/org/x/EventPublisher.java",
        "svc/src/main/java/org/x/model/LedgerKind.java",
        "charts/event-router/Chart.yaml",
    ]);
    let got = read_and_resolve(
        &names,
        "Publish events",
        "The `event-publisher` service and the event-router chart send them.\n\
         | LEDGER_KIND | TEXT |\n| - | - |\n| LEDGER_KIND | TEXT |\n",
    );
    assert_eq!(
        got,
        [
            ("event-router".into(), "charts/event-router/".into(), 0.9),
            (
                "event-publisher".into(),
                "svc/src/main/java/org/x/EventPublisher.java".into(),
                0.7
            ),
            (
                "LEDGER_KIND".into(),
                "svc/src/main/java/org/x/model/LedgerKind.java".into(),
                0.7
            ),
        ]
    );
}
