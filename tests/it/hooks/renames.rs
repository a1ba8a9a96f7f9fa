//! A commit that only swaps a word or two in each line it changes under a decision, none of
//! them written in the record (docs/hooks.md, `skip_renames`), through real `git commit` with
//! the installed hooks and through `review`: one line naming the decision, not the full
//! warning, for a method renamed; a rename of a name the record writes, a changed number or a
//! line added is warned in full; `skip_renames = false` brings the full warning back.

use super::{
    commit_all, one_record, review_quiet, said_in_one_line, warned_in_full, warned_not_in_one_line,
};
use crate::git::GitRepo;

const STORE: &str = "LIMIT = 3600\n\n\nclass SessionStore:\n    def remove_old(self, now):\n        return [s for s in self.items if now - s.made > LIMIT]\n\n    def sweep(self, now):\n        self.items = self.remove_old(now)\n";

/// ADR-0001 decides that sessions expire after an hour, kept by `SessionStore` in
/// `src/session/store.py`. Fewer than five records: no change is compared with their words.
fn repo(off: bool) -> GitRepo {
    one_record(
        (
            "0001-sessions-expire.md",
            "Sessions expire after an hour",
            "A session expires an hour after it is made: `SessionStore` in \
             `src/session/store.py` drops older sessions on every sweep.",
        ),
        &[("src/session/store.py", STORE)],
        off.then_some("skip_renames"),
    )
}

const LINE: &str = "context-graph: it only swaps a word or two a line, none that ADR-0001 writes, \
                    in files it governs; cite it if it follows or changes it";

/// `remove_old` renamed `drop_stale`, where it is defined and where it is called.
fn renamed() -> String {
    STORE.replace("remove_old", "drop_stale")
}

#[test]
fn a_method_renamed_gets_one_line() {
    let repo = repo(false);
    repo.write("src/session/store.py", &renamed());
    let err = commit_all(&repo, "Name the sweep's helper for what it drops");
    said_in_one_line(&err, LINE);
}

#[test]
fn a_name_the_record_writes_a_number_or_a_line_added_is_warned_in_full() {
    for (text, message) in [
        (
            STORE.replace("SessionStore", "SessionCache"),
            "Call it a cache",
        ),
        (STORE.replace("3600", "7200"), "Keep sessions two hours"),
        (
            STORE.replace(
                "        self.items =",
                "        self.swept = now\n        self.items =",
            ),
            "Remember the last sweep",
        ),
    ] {
        let repo = repo(false);
        repo.write("src/session/store.py", &text);
        let err = commit_all(&repo, message);
        assert!(warned_in_full(&err), "{message}: {err}");
        assert!(!err.contains(LINE), "{message}: {err}");
    }
}

#[test]
fn skip_renames_false_brings_the_full_warning_back() {
    let repo = repo(true);
    repo.write("src/session/store.py", &renamed());
    let err = commit_all(&repo, "Name the sweep's helper for what it drops");
    warned_not_in_one_line(&err, LINE);
}

#[test]
fn review_lists_it_as_quiet() {
    let repo = repo(false);
    let base = repo.head();
    repo.write("src/session/store.py", &renamed());
    repo.commit_at("2025-02-03T10:00:00Z", "Ana", "Name the sweep's helper");
    repo.write("src/session/store.py", &renamed().replace("3600", "7200"));
    repo.commit_at("2025-02-04T10:00:00Z", "Bo", "Keep sessions two hours");
    review_quiet(
        &repo,
        &base,
        ("Name the sweep's helper", "renamed"),
        "Keep sessions two hours",
        "it only swaps a word or two a line, none the record writes",
    );
}
