//! The configuration a commit hook reads (`context-graph.strict`, the comment character) is
//! git's wherever it is set: the repository's file in any case, the global file the
//! environment names, a file that one includes. The hook tells a variable nobody set from the files' text
//! without opening the repository through gix (issue 41); wherever the name is written, it
//! asks gix, so each place below is found.

use super::{commit, decisions, git, install, ok, stderr};

/// The refusal strict mode gives an uncited commit touching ADR-0001's paths.
const REFUSED: &str = "context-graph: commit refused (context-graph.strict is true)";

#[test]
fn strict_mode_is_found_in_any_case_in_the_global_file_and_in_a_file_it_includes() {
    let repo = decisions();
    install(&repo);
    // Nowhere: the commit goes in, with a warning.
    let out = commit(&repo, "src/auth/login.py", "def login(): return 1\n", "One");
    ok(&out, "not strict");

    // Written with another case, in the repository's own file.
    repo.git(&["config", "Context-Graph.Strict", "true"]);
    let out = commit(&repo, "src/auth/login.py", "def login(): return 2\n", "Two");
    assert!(stderr(&out).contains(REFUSED), "{}", stderr(&out));
    repo.git(&["config", "--unset", "context-graph.strict"]);

    // In the global file the environment names.
    let global = repo.env().path().join("global.gitconfig");
    std::fs::write(&global, "[context-graph]\n\tstrict\n").expect("write");
    let env = [("GIT_CONFIG_GLOBAL", global.to_str().expect("UTF-8"))];
    let out = git(&repo, &["commit", "-q", "-m", "Three"], &env);
    assert!(stderr(&out).contains(REFUSED), "{}", stderr(&out));

    // In a file that file includes (neither name says what).
    let more = repo.env().path().join("more.gitconfig");
    std::fs::write(&more, "[context-graph]\n\tstrict = yes\n").expect("write");
    let including = format!("[include]\n\tpath = {}\n", more.display());
    std::fs::write(&global, including).expect("write");
    let out = git(&repo, &["commit", "-q", "-m", "Four"], &env);
    assert!(stderr(&out).contains(REFUSED), "{}", stderr(&out));

    // Then nowhere again: in.
    let out = git(&repo, &["commit", "-q", "-m", "Five"], &[]);
    ok(&out, "not strict again");
}
