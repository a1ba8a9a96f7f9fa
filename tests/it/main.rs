//! Every integration test, in one test binary: the harness is compiled and linked once instead
//! of once per file.
//!
//! The harness: `env` (the hermetic [`env::TestEnv`] every run of git and of the binary goes
//! through, and the [`env::Run`] of one run), `fixture` (corpora copied from `fixtures/` into a
//! `TestEnv`, and reading the JSON answer), `git` (a [`git::GitRepo`] built on a `TestEnv`).
//! `hermetic` shows that nothing of the caller's environment gets through a `TestEnv`.
//!
//! A subject too big for one file is a folder of files by topic (`checks/`, `cli/`, `fields/`,
//! `history/`, `index/`, `markers/`), whose `mod.rs` lists them and holds the helpers they
//! share; a test's path names its topic, e.g. `index::memo::the_scan_memo_answers_every_question_as_the_scan_does`.

mod env;
mod fixture;
mod git;
mod skip;

mod agents;
mod checks;
mod cli;
mod coverage;
mod dogfood;
mod fields;
mod floods;
mod hermetic;
mod history;
#[cfg(unix)]
mod hooks;
mod imports;
mod index;
mod index_faults;
mod json_shape;
mod layers;
mod markers;
mod mcp_clients;
mod mcp_lines;
mod mentions;
mod never_wrong;
mod parser_props;
// Paths as a user types them (issue 36).
mod paths_as_typed;
mod pictures;
// A family of names in a backticked path (issue 36, ADR-0017).
mod reading_families;
mod reading_fields;
mod reading_folders;
// A `#` in a record file's name (issue 36, ADR-0001).
mod reading_hash_names;
mod reading_output;
mod reading_overviews;
mod reading_paths;
mod reading_relations;
// Records written in reStructuredText (issue 36).
mod reading_packages;
mod reading_rst;
mod reading_scope;
mod reading_shapes;
// Tracked wins over the ignore files (issue 38, ADR-0002).
#[cfg(unix)]
mod reading_tracked_ignored;
#[cfg(unix)]
mod readme;
mod regressions;
mod related;
mod related_names;
mod related_renames;
mod related_share;
mod related_text;
#[cfg(unix)]
mod review;
#[cfg(unix)]
mod review_pr;
mod review_quiet;
// Rules in records (issue 37, ADR-0021).
mod rules;
mod rules_imports;
mod rules_index;
mod scope;
// `scope --add` writes exactly the path given (issue 38, ADR-0017).
#[cfg(unix)]
mod scope_exact;
mod watch;
mod write;

// Code mentions read as a careful reader reads them (issue 20, ADR-0017).
mod mentions_precision;

// Code mentions: types by their definitions, listed modules, components (issue 20, ADR-0017).
mod mentions_commands;
mod mentions_definitions;
mod mentions_functions;

// Paths named in passing are mentions, not governed code (issue 36, ADR-0017).
mod passing;
// A file name many modules bear, written alone, is a mention (issue 36).
mod below_root;
mod passing_names;
// Another design document a record links is a mention (issue 36).
mod passing_design_docs;
mod reading_stages;
// A path more than three records name is common ground (issue 36).
mod common_ground;
// Names that are right: folders, common words, methods, products (issue 36, ADR-0017).
mod mentions_names;
