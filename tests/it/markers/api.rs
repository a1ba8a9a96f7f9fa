//! The library functions the hooks and `review` call (ADR-0009): the markers of named files
//! (`scan::markers_for`), and every file's markers through a session (`Session::source_markers`,
//! with `Markers::declared` the files declaring each record).

use super::records_repo;
use context_graph::text::marker::{FileMarkers, Marker};
use context_graph::{Options, Session};

fn marker(line: u32, id: &str) -> Marker {
    Marker {
        line,
        id: id.to_string(),
    }
}

#[test]
fn markers_for_reads_the_named_files_inside_the_read_boundary() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 1, 3\n")
        .write("src/b.rs", "fn b() {}\n")
        .write(".gitignore", "gen/\n")
        .write("gen/c.rs", "\n// @rfc 7\n");
    let root = repo.path();
    let found =
        context_graph::scan::markers_for(root, &["src/a.rs", "src/b.rs", "gen/c.rs", "nope.rs"]);
    assert_eq!(
        found.files,
        [
            FileMarkers {
                path: "gen/c.rs".into(),
                markers: vec![marker(2, "RFC-0007")],
            },
            FileMarkers {
                path: "src/a.rs".into(),
                markers: vec![marker(1, "ADR-0001"), marker(1, "ADR-0003")],
            },
        ],
        "the named files as they are, ignored or not"
    );
    #[cfg(unix)]
    {
        let outside = repo.env().path().join("outside.rs");
        std::fs::write(&outside, "// @adr 1\n").expect("a file outside");
        std::os::unix::fs::symlink(&outside, root.join("src/out.rs")).expect("a link out");
        assert!(context_graph::scan::markers_for(root, &["src/out.rs"]).is_empty());
    }
}

#[test]
fn a_session_gives_every_files_markers_and_the_files_declaring_each_record() {
    let repo = records_repo();
    repo.write("src/a.rs", "// @adr 3\n")
        .write("src/b.rs", "\n// @adr 3, 2\n");
    repo.commit_at("2025-03-01T10:00:00Z", "Ana", "Markers");
    repo.write("src/c.rs", "// @adr 1\n");
    for no_index in [false, true] {
        let mut session = Session::open(Options {
            root: Some(repo.path().to_path_buf()),
            no_index,
            ..Options::default()
        })
        .expect("a session");
        let markers = session.source_markers().expect("the markers");
        let declared: Vec<(String, Vec<(String, u32)>)> = markers
            .declared()
            .into_iter()
            .map(|(id, files)| {
                (
                    id.to_string(),
                    files.into_iter().map(|(p, l)| (p.to_string(), l)).collect(),
                )
            })
            .collect();
        assert_eq!(
            declared,
            [
                ("ADR-0001".into(), vec![("src/c.rs".into(), 1)]),
                ("ADR-0002".into(), vec![("src/b.rs".into(), 2)]),
                (
                    "ADR-0003".into(),
                    vec![("src/a.rs".into(), 1), ("src/b.rs".into(), 2)]
                ),
            ],
            "no_index: {no_index}"
        );
    }
}
