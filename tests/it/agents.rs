//! `context PATH…` and the MCP server (docs/agents.md, ADR-0014): the pack's budget and order,
//! and the server driven over stdio by rmcp's own client and by hand.

use crate::env::BIN;
use crate::git::GitRepo;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

const CONTEXT_WORDS: &str = "Sessions were kept in server-side cookies, which every node had to share through a cache that kept falling over under load. ";

/// Three records: ADR-0001 (superseded by ADR-0002) and ADR-0002 govern `src/auth/`; ADR-0002
/// also governs `src/api/`; ADR-0003 governs `src/db/`. `src/other/` is governed by none.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-sessions-in-cookies.md",
        "---\ngoverns: [src/auth/]\n---\n# 1. Sessions in cookies\n\nDate: 2024-01-10\n\n## Status\n\nSuperseded by ADR-0002\n\n## Context\n\nWe need sessions.\n\n## Decision\n\nCookies.\n",
    );
    repo.write(
        "docs/adr/0002-jwt-sessions.md",
        &format!(
            "---\ngoverns: [src/auth/, src/api/]\n---\n# 2. JWT sessions\n\nDate: 2024-03-01\n\n## Status\n\nAccepted\n\nSupersedes ADR-0001.\n\n## Context\n\n{}\n\n## Decision\n\nSessions are signed JWTs that every node verifies on its own.\n\n## Consequences\n\nNo shared session cache; tokens cannot be revoked before they expire.\n",
            CONTEXT_WORDS.repeat(12)
        ),
    );
    repo.write(
        "docs/adr/0003-postgres.md",
        "---\ngoverns: [src/db/]\n---\n# 3. Postgres\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres for everything.\n",
    );
    repo.write("src/auth/login.py", "def login(): pass\n");
    repo.write("src/api/routes.py", "ROUTES = []\n");
    repo.write("src/db/conn.py", "CONN = None\n");
    repo.write("src/other/x.py", "X = 1\n");
    repo.commit_at("2024-03-02T10:00:00Z", "Ann", "Start");
    repo.write("src/auth/login.py", "def login(): return 1\n");
    repo.commit_at("2024-04-02T10:00:00Z", "Bob", "Login returns one");
    repo
}

fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[test]
fn context_keeps_within_the_budget_decision_first_and_each_decision_once() {
    let repo = repo();
    let budget = 160;
    let run = repo.run(&[
        "context",
        "src/auth/login.py",
        "src/api/routes.py",
        "--budget",
        &budget.to_string(),
        "--json",
    ]);
    run.assert_code(0);
    let doc = run.json();
    let pack = &doc["query"]["context"];
    assert_eq!(pack["budget"], json!(budget), "{pack:#}");
    assert!(pack["used"].as_u64().unwrap() <= budget as u64, "{pack:#}");
    let decisions = pack["decisions"].as_array().unwrap();
    let ids: Vec<&str> = decisions
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["ADR-0002"],
        "shared by both paths, shown once: {pack:#}"
    );
    assert_eq!(
        decisions[0]["governs"],
        json!(["src/auth/login.py", "src/api/routes.py"])
    );
    let headings: Vec<&str> = decisions[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["heading"].as_str().unwrap())
        .collect();
    assert_eq!(headings[..2], ["Decision", "Consequences"], "{pack:#}");
    // The long context did not fit whole: cut short, or named as left out.
    let cut = decisions[0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["heading"] == "Context" && s["truncated"] == json!(true))
        || decisions[0]["omitted"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["heading"] == "Context");
    assert!(cut, "{pack:#}");
    let history = pack["history"].as_array().unwrap();
    assert_eq!(history.len(), 1, "{pack:#}");
    assert!(
        history[0]["line"].as_str().unwrap().contains(
            "ADR-0001 (Sessions in cookies, 2024-01-10) was superseded by ADR-0002 on 2024-03-01"
        ),
        "{pack:#}"
    );
    assert_eq!(pack["mentioned_by"], json!([]));
    let scanned = repo.run(&[
        "context",
        "src/auth/login.py",
        "src/api/routes.py",
        "--budget",
        &budget.to_string(),
        "--json",
        "--no-index",
    ]);
    assert_eq!(
        scanned.stdout(),
        run.stdout(),
        "the same with and without the index"
    );

    // The Markdown is what the budget counts.
    let md = repo.run(&[
        "context",
        "src/auth/login.py",
        "src/api/routes.py",
        "--budget",
        &budget.to_string(),
    ]);
    md.assert_code(0);
    let text = md.stdout();
    assert!(tokens(&text) <= budget, "{} tokens:\n{text}", tokens(&text));
    assert_eq!(
        text.matches("## ADR-0002: JWT sessions").count(),
        1,
        "{text}"
    );
    let decision = text.find("### Decision").expect(&text);
    let consequences = text.find("### Consequences").expect(&text);
    assert!(decision < consequences, "{text}");
    assert!(text.contains("Cut to fit the budget: Context"), "{text}");
    assert!(text.contains("ADR-0001 (Sessions in cookies"), "{text}");
}

#[test]
fn context_with_room_shows_the_decision_before_the_context_and_git_lists_uncited_commits() {
    let repo = repo();
    let run = repo.run(&["context", "src/auth/", "--git"]);
    run.assert_code(0);
    let text = run.stdout();
    let decision = text.find("### Decision").expect(&text);
    let context = text.find("### Context").expect(&text);
    assert!(decision < context, "{text}");
    assert!(!text.contains("Cut to fit"), "{text}");
    assert!(tokens(&text) <= 2000, "{text}");
    // The commit after the decision to its paths that did not cite it.
    assert!(text.contains("Login returns one"), "{text}");
}

#[test]
fn context_says_plainly_when_no_decision_governs_the_path() {
    let repo = repo();
    let run = repo.run(&["context", "src/other/x.py"]);
    run.assert_code(0);
    assert!(
        run.stdout()
            .contains("No current decision governs `src/other/x.py`."),
        "{}",
        run.describe()
    );
    let doc = repo.run(&["context", "src/other/x.py", "--json"]).json();
    assert_eq!(doc["query"]["context"]["decisions"], json!([]));
    let outside = repo.run(&["context", "../elsewhere"]);
    outside.assert_code(2);
}

// ----- the MCP server -----

fn text_of(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("")
}

/// Runs `body` with rmcp's client connected to `mcp` in `repo` (initialized), then closes it.
pub(crate) fn with_rmcp_client(
    repo: &GitRepo,
    body: impl AsyncFnOnce(&rmcp::service::RunningService<rmcp::RoleClient, ()>),
) {
    use rmcp::transport::TokioChildProcess;
    use rmcp::{ClientLifecycleMode, ClientServiceExt};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut cmd = repo.command(BIN);
        cmd.arg("mcp").stderr(Stdio::null());
        let transport = TokioChildProcess::new(tokio::process::Command::from(cmd)).unwrap();
        let client =
            ().serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
                .await
                .expect("initialize");
        body(&client).await;
        client.cancel().await.unwrap();
    });
}

fn parsed(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn the_mcp_server_answers_every_tool_as_the_commands_json() {
    use rmcp::model::{CallToolRequestParams, ReadResourceRequestParams};

    let repo = repo();
    with_rmcp_client(&repo, async |client| {
        let tools = client.list_all_tools().await.unwrap();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        names.sort();
        assert_eq!(names, ["check", "context", "record", "review", "why"]);
        let why = tools.iter().find(|t| t.name == "why").unwrap();
        assert_eq!(why.input_schema["properties"]["path"]["type"], "string");
        assert_eq!(why.input_schema["required"], json!(["path"]));

        let resources = client.list_all_resources().await.unwrap();
        let mut uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
        uris.sort();
        assert_eq!(
            uris,
            [
                "decision://ADR-0001",
                "decision://ADR-0002",
                "decision://ADR-0003"
            ]
        );

        let call = |name: &'static str, args: Value| {
            let client = &client;
            async move {
                let mut params = CallToolRequestParams::new(name);
                params.arguments = args.as_object().cloned();
                client.call_tool(params).await.expect("a tool answer")
            }
        };
        let cases: Vec<(&str, Value, Vec<&str>)> = vec![
            (
                "why",
                json!({"path": "src/auth/login.py"}),
                vec!["why", "src/auth/login.py"],
            ),
            ("record", json!({"id": "adr-2"}), vec!["record", "adr-2"]),
            (
                "context",
                json!({"paths": ["src/auth/", "src/db/"], "budget": 300}),
                vec!["context", "src/auth/", "src/db/", "--budget", "300"],
            ),
            ("check", json!({}), vec!["check"]),
            (
                "review",
                json!({"range": "HEAD~1..HEAD"}),
                vec!["review", "HEAD~1..HEAD"],
            ),
            (
                "why",
                json!({"path": "src/auth/", "git": true}),
                vec!["why", "src/auth/", "--git"],
            ),
        ];
        for (tool, args, command) in cases {
            let result = call(tool, args.clone()).await;
            assert_ne!(
                result.is_error,
                Some(true),
                "{tool} {args}: {}",
                text_of(&result)
            );
            let mut command = command;
            command.push("--json");
            let expected = repo.run(&command);
            assert_eq!(
                parsed(&text_of(&result)),
                expected.json(),
                "{tool} {args} against {command:?}"
            );
        }

        let read = client
            .read_resource(ReadResourceRequestParams::new("decision://ADR-0003"))
            .await
            .unwrap();
        let json = serde_json::to_value(&read).unwrap();
        let want = std::fs::read_to_string(repo.path().join("docs/adr/0003-postgres.md")).unwrap();
        assert_eq!(json["contents"][0]["text"], json!(want), "{json:#}");

        // Bad input is a tool error, and the server goes on.
        let unknown = call("record", json!({"id": "ADR-0999"})).await;
        assert_eq!(unknown.is_error, Some(true));
        assert!(
            text_of(&unknown).contains("ADR-0999"),
            "{}",
            text_of(&unknown)
        );
        let outside = call("why", json!({"path": "../../etc/passwd"})).await;
        assert_eq!(outside.is_error, Some(true), "{}", text_of(&outside));
        let wrong = call("why", json!({"pathh": "src"})).await;
        assert_eq!(wrong.is_error, Some(true), "{}", text_of(&wrong));

        // A commit between two calls: the second answer sees it, though the first was kept
        // (the files are settled two seconds after they were written).
        std::thread::sleep(std::time::Duration::from_millis(2200));
        let _kept = call("why", json!({"path": "src/other/x.py"})).await;
        let before = parsed(&text_of(
            &call("why", json!({"path": "src/other/x.py"})).await,
        ));
        assert_eq!(before["query"]["decisions"], json!([]));
        repo.write(
            "docs/adr/0004-other.md",
            "---\ngoverns: [src/other/]\n---\n# 4. Other\n\nDate: 2024-05-01\n\n## Status\n\nAccepted\n\n## Decision\n\nOther.\n",
        );
        repo.commit_at("2024-05-01T10:00:00Z", "Ann", "ADR-0004");
        let after = parsed(&text_of(
            &call("why", json!({"path": "src/other/x.py"})).await,
        ));
        assert_eq!(
            after["query"]["decisions"][0]["id"], "ADR-0004",
            "{after:#}"
        );
        let command = repo.run(&["why", "src/other/x.py", "--json"]);
        assert_eq!(after, command.json());
        // A record edited in place, not committed: seen too.
        std::thread::sleep(std::time::Duration::from_millis(2200));
        let _kept = call("why", json!({"path": "src/other/x.py"})).await;
        repo.write(
            "docs/adr/0004-other.md",
            "---\ngoverns: [src/other/]\n---\n# 4. Other\n\nDate: 2024-05-01\n\n## Status\n\nDeprecated\n\n## Decision\n\nOther.\n",
        );
        let edited = parsed(&text_of(
            &call("why", json!({"path": "src/other/x.py"})).await,
        ));
        assert_eq!(
            edited["query"]["decisions"][0]["status"], "deprecated",
            "{edited:#}"
        );
    });
}

/// By hand, line by line: a malformed line is skipped or answered with an error, the server
/// goes on, writes nothing but protocol messages on stdout, and exits 0 when stdin closes.
#[test]
fn the_mcp_server_survives_a_malformed_line_and_exits_0_when_stdin_closes() {
    let repo = repo();
    let mut child = repo
        .command(BIN)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = |v: &str| {
        stdin.write_all(v.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"by-hand","version":"0"}}}"#,
    );
    let init: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    assert_eq!(init["id"], 1, "{init}");
    assert_eq!(
        init["result"]["serverInfo"]["name"], "context-graph",
        "{init}"
    );
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    send("this is not JSON {");
    send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"why","arguments":{"path":"src/db/conn.py"}}}"#,
    );
    // Every line on stdout is a JSON-RPC message; the answer to 2 comes.
    let answer = loop {
        let line = lines.next().expect("an answer").unwrap();
        let message: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
        if message["id"] == 2 {
            break message;
        }
    };
    let text = answer["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(parsed(text)["query"]["decisions"][0]["id"], "ADR-0003");
    drop(stdin);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit after its stdin closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}
