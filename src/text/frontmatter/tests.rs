//! Frontmatter's unit tests: YAML and TOML, valid and not.

use super::*;

#[test]
fn reads_yaml_with_every_key_spelling() {
    let text = "---\nid: \"0012\"\nsupersededBy: [3, 'ADR-4']\nsuperseded-by-x: y\nreplaces:\n  - 1\n  - ADR-2\n---\n# T\n";
    let (fm, body) = split(text);
    let fm = fm.unwrap();
    assert_eq!(body, 8);
    assert_eq!(fm.fields["id"], Value::Scalar("0012".into()));
    assert_eq!(
        fm.fields["supersededby"],
        Value::List(vec!["3".into(), "ADR-4".into()])
    );
    assert_eq!(
        fm.fields["replaces"],
        Value::List(vec!["1".into(), "ADR-2".into()])
    );
    assert!(fm.invalid.is_none());
}

#[test]
fn an_alias_bomb_is_refused_before_it_is_expanded() {
    let mut raw = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("b{}", i - 1)
        };
        let refs = vec![format!("*{prev}"); 10].join(", ");
        raw.push_str(&format!("b{i}: &b{i} [{refs}]\n"));
    }
    raw.push_str("governs: [src/]\n");
    let text = format!("---\n{raw}---\n# T\n");
    let started = std::time::Instant::now();
    let (fm, _) = split(&text);
    let fm = fm.expect("frontmatter");
    assert!(
        fm.invalid.as_deref().is_some_and(|w| w.contains("aliases")),
        "{:?}",
        fm.invalid
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    // A few aliases, as records use them, are read as YAML.
    let (fm, _) = split("---\nx: &x [a, b]\ny: *x\nz: {k: v}\n---\n");
    assert!(fm.expect("frontmatter").invalid.is_none());
}

#[test]
fn invalid_yaml_falls_back_to_lines() {
    let text = "---\ntitle: Use: colons: badly\nstatus: accepted\n  bad: [indent\n---\nbody";
    let (fm, _) = split(text);
    let fm = fm.unwrap();
    assert!(fm.invalid.is_some());
    assert_eq!(fm.fields["status"], Value::Scalar("accepted".into()));
}

#[test]
fn the_simple_reader_agrees_with_the_yaml_parser() {
    let docs = [
        "id: 0012\ntitle: Use X\nstatus: accepted\ndate: 2024-01-05\n",
        "title: \"Quoted: yes\"\nsupersedes: [3, ADR-4, '5']\n",
        "superseded_by:\n  - 0009\n  - ADR-10\nreplaces:\n",
        "flag: True\nn: +12\nx: 0x1f\nf: 1.5\nz: ~\nnothing:\n# comment\n",
        "tags: []\nauthor: Ana O'Neil\n",
    ];
    for doc in docs {
        let fast = simple(doc).expect("simple enough");
        let slow = match YamlLoader::load_from_str(doc).unwrap().into_iter().next() {
            Some(Yaml::Hash(hash)) => hash
                .iter()
                .filter_map(|(k, v)| Some((normalise_key(&scalar(k)?), value(v)?)))
                .collect::<BTreeMap<_, _>>(),
            _ => BTreeMap::new(),
        };
        assert_eq!(fast, slow, "{doc}");
    }
    for not_simple in [
        "a: b: c\n",
        "a: |\n  x\n",
        "a: \"x\\\"y\"\n",
        "  indented: 1\n",
        "a: 1\na: 2\n",
    ] {
        assert!(simple(not_simple).is_none(), "{not_simple}");
    }
}

#[test]
fn lists_of_maps_are_read() {
    let text = "---\naffects:\n  - type: path\n    pattern: \"src/**\"\n  - type: doc\n    url: x\n  - {type: path, pattern: lib/, negate: true}\n---\n";
    let fm = split(text).0.unwrap();
    let Value::Maps(maps) = &fm.fields["affects"] else {
        panic!("{:?}", fm.fields)
    };
    assert_eq!(maps.len(), 3);
    assert_eq!(maps[0]["pattern"], "src/**");
    assert_eq!(maps[2]["negate"], "true");
    assert_eq!(maps[1]["type"], "doc");
}

#[test]
fn no_closing_fence_is_no_frontmatter() {
    assert!(split("---\ntitle: x\n").0.is_none());
}

#[test]
fn reads_toml_between_plus_fences_and_a_bare_header_closed_by_dashes() {
    let hugo = "+++\ntitle = \"KEP-1234: Pod overhead\"\nstatus = \"implemented\"\nauthors = [\"ann\", \"bob\"]\n+++\n# Body\n";
    let (fm, body) = split(hugo);
    let fm = fm.expect("frontmatter");
    assert!(fm.toml && fm.invalid.is_none());
    assert_eq!(
        fm.get(&["status"]),
        Some(&Value::Scalar("implemented".into()))
    );
    assert_eq!(
        fm.get(&["authors"]),
        Some(&Value::List(vec!["ann".into(), "bob".into()]))
    );
    assert_eq!(body, 5);
    let bare = "title = \"SIP 001 - Spin Deploy\"\ntemplate = \"main\"\ndate = \"2022-03-18T14:53:30Z\"\n---\n\nSummary: x\n";
    let (fm, body) = split(bare);
    let fm = fm.expect("frontmatter");
    assert_eq!(
        fm.get(&["title"]),
        Some(&Value::Scalar("SIP 001 - Spin Deploy".into()))
    );
    assert_eq!(
        fm.get(&["date"]),
        Some(&Value::Scalar("2022-03-18T14:53:30Z".into()))
    );
    assert_eq!(body, 4);
}

#[test]
fn invalid_toml_keeps_its_lines_and_prose_starting_like_toml_is_no_frontmatter() {
    let (fm, _) = split("title = \"SIP 012 - \"Signing the releases\"\n---\n");
    let fm = fm.expect("frontmatter");
    assert!(fm.toml && fm.invalid.is_some());
    assert_eq!(
        fm.get(&["title"]),
        Some(&Value::Scalar("SIP 012 - Signing the releases".into()))
    );
    assert!(split("x = 1 is the answer we chose\nand more prose\n---\n")
        .0
        .is_none());
    assert!(split("a = b\n").0.is_none(), "no closing fence");
}

#[test]
fn yaml_in_the_fenced_block_a_file_opens_with_is_frontmatter() {
    let text = "```yaml\n---\ntitle: Secret Sink\nstatus: accepted\ncreation-date: 2022-01-25\n---\n```\n\n# Secret Sink\n";
    let (fm, body) = split(text);
    let fm = fm.expect("frontmatter");
    assert_eq!(fm.fields["status"], Value::Scalar("accepted".into()));
    assert_eq!(fm.fields["title"], Value::Scalar("Secret Sink".into()));
    assert_eq!(
        text.split('\n').nth(body),
        Some(""),
        "the body starts after the fence"
    );
    assert_eq!(text.split('\n').nth(body + 1), Some("# Secret Sink"));
    // Any other block first is an example, not the record's fields.
    for other in [
        "```yaml\nkind: Deployment\n```\n# T\n",
        "```yaml\n---\nkind: Deployment\n---\nmore: x\n```\n# T\n",
        "```yaml\n---\nkind: Deployment\n```\n# T\n",
        "```json\n---\nstatus: accepted\n---\n```\n",
    ] {
        assert!(split(other).0.is_none(), "{other}");
    }
}
