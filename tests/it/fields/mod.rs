//! One test per field rule of the reference's Fields table and per parsing form of issue 2, each
//! read through the binary from the fixtures (`fixtures/<style>/`), plus one test per fixture
//! comparing the whole answer with its `expected.json`. A file per field:
//! - `corpora`: each fixture's whole answer against its `expected.json`;
//! - `id_and_title`: id and title, and CRLF files;
//! - `status`: the forms a status is read from, and the word each normalises to;
//! - `date`: where a date is read from;
//! - `links`: supersedes, superseded by, amends, cites and successors;
//! - `paths`: governed paths, missing paths and where a missing one moved.

mod corpora;
mod date;
mod id_and_title;
mod links;
mod paths;
mod status;

use serde_json::Value;

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}
