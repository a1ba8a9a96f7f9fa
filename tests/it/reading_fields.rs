//! docs/reading.md's field rules for real repositories (issue 10): ids and dates from dated file
//! names and from the folder of a generic `rfc.md`, status lines by where they stand, status in
//! metadata tables, and titles that are not section names. Each fixture under
//! `fixtures/reading/` is shaped like the repositories the rule was found in (ADR-0001).

use crate::fixture::*;
use serde_json::Value;

/// The record at `path` in the fixture's full check.
fn at(corpus: &str, path: &str) -> Value {
    record_at(&json(corpus), path).clone()
}

fn field<'a>(r: &'a Value, key: &str) -> &'a Value {
    &r[key]
}

// ------------------------------------------------------------------ whole corpora

#[test]
fn corpus_dated_names_matches_expected() {
    assert_corpus("reading/dated-names");
}

#[test]
fn corpus_dated_folders_matches_expected() {
    assert_corpus("reading/dated-folders");
}

#[test]
fn corpus_status_tables_matches_expected() {
    assert_corpus("reading/status-tables");
}

#[test]
fn corpus_status_lines_matches_expected() {
    assert_corpus("reading/status-lines");
}

#[test]
fn corpus_titles_sections_matches_expected() {
    assert_corpus("reading/titles-sections");
}

#[test]
fn corpus_titles_markdown_matches_expected() {
    assert_corpus("reading/titles-markdown");
}

// ------------------------------------------------------------------ ids from dated names

#[test]
fn a_dated_file_name_gives_its_stem_as_id_not_the_year() {
    let r = at(
        "reading/dated-names",
        "docs/adr/20240611-use-a-job-queue.md",
    );
    assert_eq!(field(&r, "id"), "20240611-use-a-job-queue");
    let r = at(
        "reading/dated-names",
        "docs/adr/2024-07-02-retry-failed-jobs.md",
    );
    assert_eq!(field(&r, "id"), "2024-07-02-retry-failed-jobs");
}

#[test]
fn two_records_from_the_same_day_are_not_duplicates() {
    let j = json("reading/dated-names");
    assert!(
        finding_list(&j).iter().all(|f| f["code"] != "duplicate-id"),
        "{:#}",
        j["findings"]
    );
    // And a link between them is a citation, not a mention of the record's own id.
    let r = record(&j, "20240611-split-the-worker-pool");
    assert_eq!(
        list(r, "cites"),
        vec!["20240611-use-a-job-queue".to_string()]
    );
}

#[test]
fn a_dated_name_gives_the_date_when_the_text_gives_none() {
    let j = json("reading/dated-names");
    // No date in the text: the name's.
    assert_eq!(
        record(&j, "20240611-split-the-worker-pool")["date"],
        "2024-06-11"
    );
    assert_eq!(
        record(&j, "2024-07-02-retry-failed-jobs")["date"],
        "2024-07-02"
    );
    // The frontmatter's date wins over the name's.
    assert_eq!(
        record(&j, "20240903-dead-letter-queue")["date"],
        "2024-09-05"
    );
}

#[test]
fn a_dated_name_keeps_a_frontmatter_id() {
    let r = at("reading/dated-names", "docs/adr/20241001-job-priorities.md");
    assert_eq!(field(&r, "id"), "ADR-0042");
    assert_eq!(field(&r, "date"), "2024-10-01");
}

#[test]
fn supersession_between_dated_records_resolves_by_stem() {
    let j = json("reading/dated-names");
    let old = record(&j, "2024-07-02-retry-failed-jobs");
    assert_eq!(old["status"], "superseded");
    assert_eq!(
        list(old, "successors"),
        vec!["20240903-dead-letter-queue".to_string()]
    );
    assert_eq!(
        list(record(&j, "20240903-dead-letter-queue"), "supersedes"),
        vec!["2024-07-02-retry-failed-jobs".to_string()]
    );
}

#[test]
fn a_date_with_an_unpadded_frontmatter_date_falls_back_to_the_name() {
    let r = at("reading/dated-folders", "docs/rfcs/2024-08-06-json-type.md");
    assert_eq!(field(&r, "id"), "2024-08-06-json-type");
    assert_eq!(field(&r, "date"), "2024-08-06");
}

#[test]
fn a_generic_rfc_md_in_a_dated_folder_takes_the_folder_as_its_name() {
    let j = json("reading/dated-folders");
    let r = record_at(&j, "docs/rfcs/2022-12-20-query-in-rust/rfc.md");
    assert_eq!(r["id"], "2022-12-20-query-in-rust");
    assert_eq!(r["date"], "2022-12-20");
    let r = record_at(&j, "docs/rfcs/2023-03-29-external-tables/rfc.md");
    assert_eq!(r["id"], "2023-03-29-external-tables");
    assert!(
        finding_list(&j).iter().all(|f| f["code"] != "duplicate-id"),
        "{:#}",
        j["findings"]
    );
    // A link to the folder's `rfc.md` cites the record by that name.
    let compaction = record(&j, "2023-02-14-table-compaction");
    assert_eq!(
        list(compaction, "cites"),
        vec![
            "2022-12-20-query-in-rust".to_string(),
            "2023-01-03-job-runner".to_string()
        ]
    );
}

// ------------------------------------------------------------------ status tables

#[test]
fn a_metadata_table_without_edge_pipes_gives_the_status() {
    let r = at("reading/status-tables", "rfcs/20180824-print-v2.md");
    assert_eq!(field(&r, "status"), "accepted");
    assert_eq!(field(&r, "status_text"), "Accepted");
}

#[test]
fn a_metadata_table_with_a_separator_after_its_first_row_gives_its_second_cell() {
    let r = at("reading/status-tables", "rfcs/20180920-rnn-interface.md");
    assert_eq!(field(&r, "status"), "accepted");
    assert_eq!(field(&r, "status_text"), "Accepted");
    // Not "RFC #", which read as the "rfc" word made an implemented RFC proposed.
    let r = at("reading/status-tables", "rfcs/20200107-data-snapshots.md");
    assert_eq!(field(&r, "status"), "implemented");
    assert_eq!(field(&r, "status_text"), "Implemented");
}

#[test]
fn a_metadata_table_with_an_unknown_status_gives_that_status_not_the_next_key() {
    let j = json("reading/status-tables");
    let r = record_at(&j, "rfcs/20220301-sparse-layers.md");
    assert_eq!(r["status"], "unrecognised");
    assert_eq!(r["status_text"], "In revision");
    assert!(has_finding(
        &j,
        "status-unrecognised",
        "20220301-sparse-layers"
    ));
}

#[test]
fn a_real_header_row_still_gives_the_value_below_it() {
    let r = at(
        "reading/status-tables",
        "rfcs/20210115-periodic-training.md",
    );
    assert_eq!(field(&r, "status"), "rejected");
    assert_eq!(field(&r, "date"), "2021-01-15");
}

// ------------------------------------------------------------------ status lines

fn status_of(path: &str) -> (String, String) {
    let r = at("reading/status-lines", path);
    (
        r["status"].as_str().unwrap_or("?").to_string(),
        r["status_text"].as_str().unwrap_or("?").to_string(),
    )
}

#[test]
fn a_status_section_wins_over_a_glossary_line_in_the_body() {
    assert_eq!(
        status_of("docs/adr/0001-name-records-by-slug.md"),
        ("accepted".into(), "Accepted".into())
    );
}

#[test]
fn a_status_section_wins_over_a_glossary_table_in_the_body() {
    assert_eq!(
        status_of("docs/adr/0008-tag-records-by-team.md"),
        ("proposed".into(), "Proposed".into())
    );
}

#[test]
fn a_status_section_wins_over_a_stray_line_with_a_status_word() {
    assert_eq!(
        status_of("docs/adr/0009-encrypt-backups.md"),
        ("proposed".into(), "Proposed".into())
    );
}

#[test]
fn a_stray_line_without_a_status_word_is_not_a_status() {
    let j = json("reading/status-lines");
    let r = record(&j, "ADR-0004");
    assert_eq!(r["status"], "unknown");
    assert!(has_finding(&j, "status-missing", "ADR-0004"));
    assert!(!has_finding(&j, "status-unrecognised", "ADR-0004"));
}

#[test]
fn a_stray_line_with_a_status_word_still_counts_without_a_section() {
    assert_eq!(
        status_of("docs/adr/0005-keep-the-audit-log.md"),
        (
            "accepted".into(),
            "Accepted by the platform group after the March review.".into()
        )
    );
}

#[test]
fn a_status_label_inside_the_status_section_counts() {
    assert_eq!(
        status_of("docs/adr/0010-label-inside-the-section.md"),
        ("deprecated".into(), "Deprecated".into())
    );
}

#[test]
fn pending_is_proposed() {
    assert_eq!(
        status_of("docs/adr/0002-managed-configuration.md"),
        ("proposed".into(), "Pending implementation".into())
    );
    assert_eq!(
        status_of("docs/adr/0003-puppet-layout.md"),
        ("proposed".into(), "Pending".into())
    );
    let j = json("reading/status-lines");
    assert!(
        finding_list(&j)
            .iter()
            .all(|f| f["code"] != "status-unrecognised"),
        "{:#}",
        j["findings"]
    );
}

#[test]
fn superceded_is_superseded() {
    let j = json("reading/status-lines");
    let r = record(&j, "ADR-0006");
    assert_eq!(r["status"], "superseded");
    assert_eq!(list(r, "successors"), vec!["ADR-0007".to_string()]);
    assert!(!has_finding(&j, "status-unrecognised", "ADR-0006"));
}

// ------------------------------------------------------------------ titles

fn title(corpus: &str, path: &str) -> String {
    at(corpus, path)["title"]
        .as_str()
        .unwrap_or("<no title>")
        .to_string()
}

#[test]
fn a_summary_heading_is_not_the_title_when_frontmatter_names_the_record() {
    assert_eq!(
        title("reading/titles-sections", "rfcs/0040-formatting.md"),
        "formatting"
    );
}

#[test]
fn a_status_word_heading_is_not_the_title_when_frontmatter_names_the_record() {
    assert_eq!(
        title("reading/titles-sections", "rfcs/0025-core-team.md"),
        "core-team"
    );
}

#[test]
fn feature_name_names_the_record() {
    assert_eq!(
        title("reading/titles-sections", "rfcs/0042-table-compaction.md"),
        "table-compaction"
    );
    assert_eq!(
        title(
            "reading/dated-folders",
            "docs/rfcs/2023-01-03-job-runner.md"
        ),
        "job-runner"
    );
}

#[test]
fn name_names_the_record_over_a_status_heading_that_still_gives_the_status() {
    let r = at("reading/titles-sections", "rfcs/0043-retire-the-mirror.md");
    assert_eq!(r["title"], "retire-the-mirror");
    assert_eq!(r["status"], "accepted");
}

#[test]
fn a_real_first_heading_stays_the_title() {
    assert_eq!(
        title("reading/titles-sections", "rfcs/0041-package-paths.md"),
        "RFC: Simple package paths"
    );
    // No frontmatter names the record: the section heading is all there is.
    assert_eq!(
        title("reading/titles-sections", "rfcs/0044-motivation-first.md"),
        "Motivation"
    );
    assert_eq!(
        title("reading/titles-sections", "rfcs/0045-titled.md"),
        "Cache sources by hash"
    );
}

#[test]
fn links_and_emphasis_in_a_title_are_reduced_to_their_text() {
    let t = |p: &str| title("reading/titles-markdown", p);
    assert_eq!(t("docs/adr/0005-use-y.md"), "Use Y");
    assert_eq!(
        t("docs/adr/0006-structured-logs.md"),
        "Adopt structured logs with tracing"
    );
    assert_eq!(
        t("docs/adr/0008-drop-the-old-queue.md"),
        "Drop the old queue, see ADR 5"
    );
    // Underscores inside words are not emphasis.
    assert_eq!(
        t("docs/adr/0007-snake-case-names.md"),
        "Keep snake_case_names in the public API"
    );
}

/// A status section that keeps its history ("Accepted", later "Superseded by 35") says where the
/// record stands now: superseded, not still accepted (and no `superseded-still-current`).
#[test]
fn a_status_section_keeps_its_history_and_the_last_word_counts() {
    crate::fixture::assert_corpus("reading/status-history");
}

/// Wikibase's records: a number before `)` and the anchor's attributes after the title
/// (`# 1) Use PSR-16 PHP Cache Interface in Wikibase {#adr_0001}`) are neither the title's.
#[test]
fn a_heading_numbered_with_a_parenthesis_and_an_anchor_keeps_its_title_alone() {
    let f = crate::fixture::empty_root();
    f.write(
        "docs/adr/0001-use-psr-16.md",
        b"# 1) Use PSR-16 PHP Cache Interface in Wikibase {#adr_0001}\n\nDate: 2018-07-19\n\n\
          ## Status\n\naccepted\n\n## Decision\n\nUse it.\n",
    );
    f.write(
        "docs/adr/0002-templates.md",
        b"# 2. Render {name} placeholders in templates\n\nStatus: accepted\n",
    );
    let doc = f.run_json(&["check"]).json();
    let one = crate::fixture::record_at(&doc, "docs/adr/0001-use-psr-16.md");
    assert_eq!(one["id"], "ADR-0001", "{one:#}");
    assert_eq!(
        one["title"], "Use PSR-16 PHP Cache Interface in Wikibase",
        "{one:#}"
    );
    assert_eq!(one["status"], "accepted", "{one:#}");
    // Braces that are the title's own stay.
    let two = crate::fixture::record_at(&doc, "docs/adr/0002-templates.md");
    assert_eq!(
        two["title"], "Render {name} placeholders in templates",
        "{two:#}"
    );
}

#[test]
fn toml_frontmatter_gives_the_title_date_and_status() {
    let f = crate::fixture::empty_root();
    // Bartholomew's header, as Spin's improvement proposals open: no opening fence.
    f.write(
        "docs/adr/001-deploy.md",
        b"title = \"SIP 001 - Spin Deploy\"\ntemplate = \"main\"\ndate = \"2022-03-18T14:53:30Z\"\n---\n\n\
          Summary: a command that deploys an application\n\n## Background\n\nUsers deploy by hand.\n",
    );
    // Hugo's, between `+++` lines.
    f.write(
        "docs/adr/002-overhead.md",
        b"+++\ntitle = \"Pod overhead\"\nstatus = \"implemented\"\n+++\n\n## Summary\n\nCount it.\n",
    );
    // Invalid TOML: its lines are read, and a note says so.
    f.write(
        "docs/adr/003-sign.md",
        b"title = \"SIP 003 - \"Signing the releases\"\n---\n\nStatus: accepted\n",
    );
    let doc = f.run_json(&["check"]).json();
    let one = crate::fixture::record_at(&doc, "docs/adr/001-deploy.md");
    assert_eq!(one["title"], "SIP 001 - Spin Deploy", "{one:#}");
    assert_eq!(one["date"], "2022-03-18", "{one:#}");
    let two = crate::fixture::record_at(&doc, "docs/adr/002-overhead.md");
    assert_eq!(two["title"], "Pod overhead", "{two:#}");
    assert_eq!(two["status"], "implemented", "{two:#}");
    let three = crate::fixture::record_at(&doc, "docs/adr/003-sign.md");
    assert_eq!(
        three["title"], "SIP 003 - Signing the releases",
        "{three:#}"
    );
    let notes = doc["notes"].to_string();
    assert!(
        notes.contains("docs/adr/003-sign.md: frontmatter is not valid TOML"),
        "{notes}"
    );
}

#[test]
fn files_named_by_a_year_two_share_take_their_names_as_ids() {
    let f = crate::fixture::empty_root();
    // react-spectrum's RFCs: named by the year they were written, seven of them 2019's.
    for (name, title) in [
        ("2019-v3-slots", "Slots"),
        ("2019-v3-theming", "Theming"),
        ("2020-v3-dnd", "Drag and drop"),
    ] {
        f.write(
            &format!("docs/rfcs/{name}.md"),
            format!("# {title}\n\nStatus: accepted\n").as_bytes(),
        );
    }
    // Numbers that are all different are record numbers, whatever they look like.
    for (name, title) in [("2019-lang-impl", "Impls"), ("2020-unsafe", "Unsafe")] {
        f.write(
            &format!("rfcs/{name}.md"),
            format!("# {title}\n\nStatus: accepted\n").as_bytes(),
        );
    }
    let out = f.run_json(&["check"]);
    out.assert_code(0);
    let doc = out.json();
    let id = |p: &str| crate::fixture::record_at(&doc, p)["id"].clone();
    assert_eq!(id("docs/rfcs/2019-v3-slots.md"), "2019-v3-slots");
    assert_eq!(id("docs/rfcs/2019-v3-theming.md"), "2019-v3-theming");
    assert_eq!(id("docs/rfcs/2020-v3-dnd.md"), "2020-v3-dnd");
    assert_eq!(id("rfcs/2019-lang-impl.md"), "RFC-2019");
    assert_eq!(id("rfcs/2020-unsafe.md"), "RFC-2020");
    assert!(
        !doc["findings"].to_string().contains("duplicate-id"),
        "{:#}",
        doc["findings"]
    );
}

/// Frontmatter inside the fenced YAML block a file opens with (external-secrets' design
/// documents): its title, status and `creation-date` are the record's, and nothing is missing.
#[test]
fn frontmatter_in_the_fenced_block_a_file_opens_with() {
    let f = crate::fixture::empty_root();
    let doc = |title: &str, status: &str, date: &str| {
        format!(
            "```yaml\n---\ntitle: {title}\nversion: v1alpha1\nauthors: all of us\ncreation-date: {date}\nstatus: {status}\n---\n```\n\n# {title}\n\n## Summary\n\nWe add `{{}}`.\n"
        )
    };
    f.write(
        "design/001-secret-sink.md",
        doc("Secret Sink", "accepted", "2022-01-25").as_bytes(),
    );
    f.write(
        "design/design-crd-spec.md",
        doc("External Secrets Operator CRD", "implemented", "2020-09-01").as_bytes(),
    );
    // A record whose first block is an example, not its fields: read as before.
    f.write(
        "design/002-example.md",
        b"```yaml\nkind: ExternalSecret\n```\n\n# Example first\n\nStatus: proposed\n",
    );
    let out = f.run_json(&["--docs", "design", "check"]);
    let doc = out.json();
    let r = crate::fixture::record_at(&doc, "design/001-secret-sink.md");
    assert_eq!(r["status"], "accepted", "{r:#}");
    assert_eq!(r["title"], "Secret Sink");
    assert_eq!(r["date"], "2022-01-25");
    let r = crate::fixture::record_at(&doc, "design/design-crd-spec.md");
    assert_eq!(r["status"], "implemented", "{r:#}");
    assert_eq!(r["date"], "2020-09-01");
    let r = crate::fixture::record_at(&doc, "design/002-example.md");
    assert_eq!(r["status"], "proposed", "{r:#}");
    assert!(
        !doc["findings"].to_string().contains("status-missing"),
        "{:#}",
        doc["findings"]
    );
}
