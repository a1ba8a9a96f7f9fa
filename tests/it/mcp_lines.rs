//! The MCP server by the book (ADR-0014), driven by hand over stdio with a timeout on every
//! answer, so a server gone silent fails the test rather than hanging it: every malformed line
//! is answered with JSON-RPC's error (with the message's own id when it has one) and the server
//! goes on; a batch is answered as one array in the one revision that has batches (2025-03-26)
//! and refused in the others; a kept answer follows a change to what git ignores, as the
//! command's answer does.

use crate::env::BIN;
use crate::git::GitRepo;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// The longest a test waits for one line from the server.
const WAIT: Duration = Duration::from_secs(20);

/// Past the file system's time granularity: an answer given now is kept by the server.
const SETTLE: Duration = Duration::from_millis(2_200);

/// A running `context-graph mcp`, initialized.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Server {
    fn start(repo: &GitRepo) -> Server {
        Server::speaking(repo, "2025-06-18")
    }

    /// Started and initialized, the client asking for MCP `revision`.
    fn speaking(repo: &GitRepo, revision: &str) -> Server {
        let mut child = repo
            .command(BIN)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 100,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": revision,
            "capabilities": {},
            "clientInfo": {"name": "by-hand", "version": "0"}
        }});
        server.send(initialize.to_string().as_bytes());
        let init = server.next("initialize");
        assert_eq!(init["id"], 1, "{init}");
        assert_eq!(init["result"]["protocolVersion"], revision, "{init}");
        server.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    /// Sends `line` and its `\n`.
    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write a line");
        stdin.write_all(b"\n").expect("write a newline");
        stdin.flush().expect("flush");
    }

    /// The next message, which must come within [`WAIT`] and be a JSON-RPC message (or an
    /// array of them, a batch's answer).
    fn next(&self, what: &str) -> Value {
        let line = self.lines.recv_timeout(WAIT).unwrap_or_else(|_| {
            panic!("{what}: no answer within {WAIT:?} (the server went silent)")
        });
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {line}"));
        let each = match &message {
            Value::Array(answers) => answers.clone(),
            one => vec![one.clone()],
        };
        for one in each {
            assert_eq!(one["jsonrpc"], "2.0", "{what}: {message}");
        }
        message
    }

    /// Sends `method` with `params` and returns the response to it.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(line.to_string().as_bytes());
        loop {
            let message = self.next(method);
            if message["id"] == id {
                return message;
            }
        }
    }

    /// The `why` tool's answer for `path`, parsed.
    fn why(&mut self, path: &str) -> Value {
        let answer = self.request(
            "tools/call",
            json!({"name": "why", "arguments": {"path": path}}),
        );
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("why {path}: {answer}"));
        serde_json::from_str(text).expect("the answer is JSON")
    }

    /// Closes stdin; the exit code, which must come within [`WAIT`].
    fn close(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit after its stdin closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// ADR-0001 governs `src/db/`; ADR-0002 names `build/out.js` in passing, a file not committed.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-postgres.md",
        "---\ngoverns: [src/db/]\n---\n# 1. Postgres\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres for everything.\n",
    );
    repo.write(
        "docs/adr/0002-bundle.md",
        "# 2. Bundle\n\nDate: 2024-02-02\n\n## Status\n\nAccepted\n\n## Decision\n\nThe bundle is `build/out.js`.\n",
    );
    repo.write("src/db/conn.py", "CONN = None\n");
    repo.commit_at("2024-03-02T10:00:00Z", "Ann", "Start");
    repo.write("build/out.js", "bundle()\n");
    repo
}

#[test]
fn every_malformed_line_is_answered_with_a_json_rpc_error_and_the_server_goes_on() {
    let repo = repo();
    let mut server = Server::start(&repo);
    let ping = br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{{\"a\":{}{}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}",
        "x".repeat(5 * 1024 * 1024)
    );
    let cases: Vec<(&str, Vec<u8>, &[i64])> = vec![
        (
            "a line that is not JSON",
            b"this is not JSON {".to_vec(),
            &[-32700],
        ),
        (
            "a line that is not UTF-8",
            b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"x\":\"\xff\xfe\"}".to_vec(),
            &[-32700],
        ),
        ("JSON nested 100,000 deep", deep.into_bytes(), &[-32700]),
        ("a request over 4 MiB", huge.into_bytes(), &[-32600, -32700]),
        (
            "a batch",
            [b"[".as_slice(), ping, b"]"].concat(),
            &[-32600, -32700],
        ),
        ("a number", b"42".to_vec(), &[-32600, -32700]),
    ];
    for (what, line, codes) in cases {
        server.send(&line);
        let error = server.next(what);
        assert_eq!(error["id"], Value::Null, "{what}: {error}");
        let code = error["error"]["code"].as_i64().unwrap_or_default();
        assert!(codes.contains(&code), "{what}: code {code}: {error}");
        let message = error["error"]["message"].as_str().unwrap_or_default();
        if code == -32700 {
            assert!(message.starts_with("Parse error"), "{what}: {error}");
        } else {
            assert!(!message.is_empty(), "{what}: {error}");
        }
        // The next request is answered.
        let pong = server.request("ping", json!({}));
        assert!(pong["result"].is_object(), "{what}, then a ping: {pong}");
    }
    let answer = server.why("src/db/conn.py");
    assert_eq!(
        answer["query"]["decisions"][0]["id"], "ADR-0001",
        "{answer}"
    );
    assert_eq!(server.close(), Some(0));
}

#[test]
fn a_kept_answer_follows_what_git_ignores() {
    let repo = repo();
    let mut server = Server::start(&repo);
    let truth = |repo: &GitRepo| {
        let out = repo.run(&["why", "build/out.js", "--json", "--no-index"]);
        assert_eq!(out.code, Some(0), "{}", out.describe());
        out.json()
    };
    let changes: [(&str, &str, &str); 2] = [
        ("a .gitignore", ".gitignore", "build/\n"),
        (
            "the repository's info/exclude",
            ".git/info/exclude",
            "build/\n",
        ),
    ];
    for (what, file, text) in changes {
        // Kept: settled, asked twice.
        std::thread::sleep(SETTLE);
        let _kept = server.why("build/out.js");
        let before = server.why("build/out.js");
        assert_eq!(before, truth(&repo), "{what}: before");
        assert_eq!(
            before["query"]["decisions"][0]["id"], "ADR-0002",
            "{before}"
        );
        repo.write(file, text);
        let after = server.why("build/out.js");
        assert_eq!(
            after,
            truth(&repo),
            "{what}: the server's answer after the change"
        );
        assert_eq!(after["query"]["decisions"], json!([]), "{what}: {after}");
        // The command, with the index, sees it too.
        let command = repo.run(&["why", "build/out.js", "--json"]);
        assert_eq!(command.json(), after, "{what}: the command's answer");
        std::fs::remove_file(repo.path().join(file)).expect("undo the change");
    }
    assert_eq!(server.close(), Some(0));
}

#[test]
fn a_message_rmcp_cannot_read_is_answered_with_its_own_id() {
    let repo = repo();
    let mut server = Server::start(&repo);
    for (line, id) in [
        (r#"{"id":6,"method":"ping"}"#, json!(6)),
        (
            r#"{"jsonrpc":"2.0","id":"seven","method":"tools/call","params":5}"#,
            json!("seven"),
        ),
        (r#"{"jsonrpc":"2.0","id":[8],"method":"ping"}"#, Value::Null),
    ] {
        server.send(line.as_bytes());
        let error = server.next(line);
        assert_eq!(error["id"], id, "{line}: {error}");
        assert_eq!(error["error"]["code"], -32600, "{line}: {error}");
    }
    // A notification is never answered, not even when rmcp cannot read it.
    server.send(br#"{"method":"notifications/initialized"}"#);
    let pong = server.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    assert_eq!(server.close(), Some(0));
}

#[test]
fn a_batch_is_answered_in_2025_03_26_and_refused_in_the_revisions_without_batches() {
    let repo = repo();
    let batch = json!([
        {"jsonrpc": "2.0", "id": 21, "method": "tools/call",
         "params": {"name": "why", "arguments": {"path": "src/db/conn.py"}}},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
        {"jsonrpc": "2.0", "id": 22, "method": "ping"},
        42
    ])
    .to_string();

    let mut server = Server::speaking(&repo, "2025-03-26");
    server.send(batch.as_bytes());
    let answer = server.next("a batch in 2025-03-26");
    let answers = answer
        .as_array()
        .unwrap_or_else(|| panic!("one array: {answer}"));
    let mut ids: Vec<String> = answers.iter().map(|a| a["id"].to_string()).collect();
    ids.sort();
    assert_eq!(ids, ["21", "22", "null"], "{answer}");
    for a in answers {
        assert_eq!(a["jsonrpc"], "2.0", "{a}");
        if a["id"] == 21 {
            let text = a["result"]["content"][0]["text"]
                .as_str()
                .unwrap_or_default();
            let why: Value = serde_json::from_str(text).expect("the answer is JSON");
            assert_eq!(why["query"]["decisions"][0]["id"], "ADR-0001", "{why}");
        }
        if a["id"].is_null() {
            assert_eq!(a["error"]["code"], -32600, "{a}");
        }
    }
    // An empty batch is one error; the next message is answered on its own.
    server.send(b"[]");
    let empty = server.next("an empty batch");
    assert_eq!(
        (empty["id"].clone(), empty["error"]["code"].clone()),
        (Value::Null, json!(-32600))
    );
    let pong = server.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    assert_eq!(server.close(), Some(0));

    for revision in ["2025-06-18", "2025-11-25"] {
        let mut server = Server::speaking(&repo, revision);
        server.send(batch.as_bytes());
        let refused = server.next(revision);
        assert_eq!(refused["id"], Value::Null, "{revision}: {refused}");
        assert_eq!(refused["error"]["code"], -32600, "{revision}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(revision), "{revision}: {message}");
        // Nothing of the batch was run: the next answer is to the next request.
        server.send(br#"{"jsonrpc":"2.0","id":31,"method":"ping"}"#);
        let pong = server.next("a ping after the refused batch");
        assert_eq!(pong["id"], 31, "{revision}: {pong}");
        assert_eq!(server.close(), Some(0));
    }
}
