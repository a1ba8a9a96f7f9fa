//! Discovery's unit tests: which names are records, folders of their own, status folders.

use super::*;

#[test]
fn rst_files_are_records_under_the_markdown_rules() {
    for name in [
        "0001-record-architecture-decisions.rst",
        "0002-x.RST",
        "0003-y.md",
    ] {
        assert!(is_record_name(name), "{name}");
    }
    for name in [
        "index.rst",
        "README.rst",
        "0000-template.rst",
        "adr-template.rst",
        "XXXX-title.rst",
        "conf.py",
        "notes.txt",
    ] {
        assert!(!is_record_name(name), "{name}");
    }
}

#[test]
fn a_title_with_the_word_template_is_a_record() {
    for name in [
        "0019-use-real-template.md",
        "0019-template.md",
        "20240501-drop-the-template.md",
        "0039-use-velocity-as-template-engine.md",
    ] {
        assert!(is_record_name(name), "{name}");
    }
    for name in [
        "template.md",
        "000-template.md",
        "adr-template-long.md",
        "nygard-template.md",
        "template-lightweight.md",
    ] {
        assert!(!is_record_name(name), "{name}");
    }
}

#[test]
fn a_proposals_folder_inside_a_status_folder_holds_its_record() {
    for (rel, folder) in [
        ("rfcs/supported/assertion_handler/README.md", "rfcs"),
        ("rfcs/Proposed/numa/readme.md", "rfcs"),
        ("design/accepted/x/index.md", "design"),
        ("rfcs/0001-x/README.md", "rfcs"),
    ] {
        assert!(is_folder_record(rel, folder), "{rel}");
    }
    for (rel, folder) in [
        // A status folder's own index, a folder of no status, one level too deep.
        ("rfcs/proposed/README.md", "rfcs"),
        ("rfcs/ideas/x/README.md", "rfcs"),
        ("rfcs/supported/group/x/README.md", "rfcs"),
        ("rfcs/supported/x/notes.md", "rfcs"),
        ("other/supported/x/README.md", "rfcs"),
    ] {
        assert!(!is_folder_record(rel, folder), "{rel}");
    }
    assert_eq!(
        status_folder("rfcs/supported/x/README.md", "rfcs"),
        Some("implemented")
    );
    assert_eq!(
        status_folder("rfcs/withdrawn/0003-x.md", "rfcs"),
        Some("rejected")
    );
    assert_eq!(status_folder("rfcs/0003-x.md", "rfcs"), None);
    assert_eq!(status_folder("rfcs/x/supported/y.md", "rfcs"), None);
    assert_eq!(stage_of("rfcs/supported/x/readme.md"), Some("supported"));
    assert_eq!(stage_of("rfcs/supported/x/notes.md"), None);
    assert_eq!(stage_of("rfcs/ideas/x/README.md"), None);
}
