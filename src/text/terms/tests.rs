use super::*;

#[test]
fn a_command_line_is_its_program_and_subcommand_words() {
    let call = |t: &str| invocation(t);
    assert_eq!(
        call("$ flux push artifact oci://x:v1 --path=.").as_deref(),
        Some("flux push artifact")
    );
    assert_eq!(
        call("  egctl config ENTITY").as_deref(),
        Some("egctl config")
    );
    assert_eq!(
        call("a b c d e f g").as_deref(),
        Some("a b c d e"),
        "a program and four words at most"
    );
    assert_eq!(call("flux"), None, "no subcommand");
    assert_eq!(call("Flux push"), None, "prose, not a program");
    assert_eq!(call("make -j4"), None);
    let fenced = [
        (3, "kubectl apply -f x.yaml"),
        (4, "kubectl apply -f y.yaml"),
    ];
    let got = invocations(&fenced);
    assert_eq!(got.len(), 1, "each once, at its first line: {got:?}");
    assert_eq!((got[0].line, got[0].kind), (4, Kind::Invocation));
}

fn phrases_of(text: &str, title: &str) -> Vec<String> {
    let lines: Vec<(usize, &str)> = text.split('\n').enumerate().collect();
    terms(&lines, title, 0)
        .into_iter()
        .filter(|t| matches!(t.kind, Kind::Phrase | Kind::TitlePhrase))
        .map(|t| t.text)
        .collect()
}

#[test]
fn phrases_said_twice_or_in_the_title() {
    let got = phrases_of(
        "# Using Worldwide Organisations\nThe Worldwide Offices and the worldwide offices.\n\
         A passing list: bulk republishing, search.",
        "Using Worldwide Organisations",
    );
    assert_eq!(got, ["Worldwide Organisations", "Worldwide Offices"]);
}

#[test]
fn common_words_punctuation_code_and_links_end_a_phrase() {
    let got = phrases_of(
        "We set up the service. We set up the service.\n\
         The blob, store; the blob, store.\n\
         The `x` event `y` bus and the event `z` bus.\n\
         See [event bus](https://example.com) and [event bus](https://example.com).\n\
         The AWS VPC and the AWS VPC.",
        "Title",
    );
    assert!(got.is_empty(), "{got:?}");
}

#[test]
fn a_phrase_of_a_name_written_as_code_is_not_repeated() {
    let got = phrases_of(
        "The blob store is the BlobStore; the blob stores grow.",
        "Title",
    );
    assert!(got.is_empty(), "{got:?}");
}
