//! Reading is linear in a record's size whatever its lines hold (issue 38, ADR-0011): a
//! record that is one long line of one Markdown construct is read about as fast as the same
//! bytes one construct a line.
//!
//! Not a timed assertion: each record here is a size at which the quadratic reading this
//! guards against took minutes in a debug build (a 64 KB line of code spans took 220 s; 128 KB,
//! four times that), while the linear one takes a second or two. The run's timeout is generous
//! (two minutes, against a few seconds for the whole check) so only a quadratic scan reaches
//! it, however loaded the machine.

use crate::env::TestEnv;
use std::time::Duration;

/// Each record's one line: this many bytes.
const LINE_BYTES: usize = 128 * 1024;

/// `unit` and a space, again and again, to [`LINE_BYTES`].
fn line_of(unit: &str) -> String {
    let mut line = String::with_capacity(LINE_BYTES + unit.len() + 1);
    while line.len() < LINE_BYTES {
        line.push_str(unit);
        line.push(' ');
    }
    line
}

#[test]
fn a_record_of_one_long_line_of_any_construct_is_read_in_linear_time() {
    let floods = [
        ("code spans", "`a`"),
        ("listed code spans", "`a` and"),
        ("examples", "e.g. `a`"),
        ("links", "[a](b.md)"),
        ("links out", "[a](https://example.com/a)"),
        ("emphasis", "*a* _b_ **c**"),
        ("table cells", "| a | b |"),
        ("table cells of code", "| `a` | `b` |"),
    ];
    let env = TestEnv::new().with_timeout(Duration::from_secs(120));
    let root = env.path().join("repo");
    for (i, (name, unit)) in floods.iter().enumerate() {
        let n = i + 1;
        let path = root.join(format!("docs/adr/{n:04}-flood.md"));
        std::fs::create_dir_all(path.parent().unwrap()).expect("create the folder");
        // A table's rows follow its header and rule, so each cell is read as a column's.
        let head = if unit.starts_with('|') {
            "| kind | name |\n|---|---|\n"
        } else {
            ""
        };
        let text = format!(
            "# ADR-{n:04}: Flood of {name}\n\nStatus: Accepted\n\n{head}{}\n",
            line_of(unit)
        );
        std::fs::write(&path, text).expect("write the record");
    }
    let run = env.run_json(&root, &["check", "--no-index"]);
    run.assert_finished();
    // Findings or none (a link to a missing `b.md` may be one): an answer, not a failure.
    assert!(matches!(run.code, Some(0 | 1)), "{}", run.describe());
    let doc = run.json();
    let titles: Vec<&str> = doc["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| r["title"].as_str().expect("a title"))
        .collect();
    let want: Vec<String> = floods
        .iter()
        .map(|(name, _)| format!("Flood of {name}"))
        .collect();
    assert_eq!(titles, want, "{}", run.describe());
}
