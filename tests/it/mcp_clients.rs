//! The MCP server as the clients agents use read it (docs/agents.md, ADR-0014): every tool
//! read-only, each argument of one type (optional by its absence), each answer typed by an
//! `outputSchema` and carried in `structuredContent`; a number or a boolean written as a string
//! understood; `why` on an ungoverned path naming no guide. Driven by rmcp's own client, by the
//! MCP Python SDK and by the MCP Inspector's CLI; the last two skip (tests/it/skip.rs) when
//! `.ci/run` could not install them.

use crate::env::BIN;
use crate::git::GitRepo;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// ADR-0001 governs `src/db/`, ADR-0002 `src/api/`; the README cites ADR-0002 only; `src/other/`
/// is governed by none.
fn repo() -> GitRepo {
    let repo = GitRepo::new();
    repo.write(
        "docs/adr/0001-postgres.md",
        "---\ngoverns: [src/db/]\n---\n# 1. Postgres\n\nDate: 2024-02-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe store orders.\n\n## Decision\n\nPostgres for everything.\n\n## Consequences\n\nOne database to run.\n",
    );
    repo.write(
        "docs/adr/0002-rest.md",
        "---\ngoverns: [src/api/]\n---\n# 2. REST\n\nDate: 2024-02-02\n\n## Status\n\nAccepted\n\n## Decision\n\nThe API is REST.\n",
    );
    repo.write("README.md", "# Shop\n\nThe API follows ADR-0002.\n");
    repo.write("src/db/conn.py", "CONN = None\n");
    repo.write("src/api/routes.py", "ROUTES = []\n");
    repo.write("src/other/x.py", "X = 1\n");
    repo.commit_at("2024-03-02T10:00:00Z", "Ann", "Start");
    repo.write("src/db/conn.py", "CONN = 1\n");
    repo.commit_at("2024-04-02T10:00:00Z", "Bob", "Connect");
    repo
}

/// Each tool with typed arguments, and the command whose `--json` it answers with.
fn calls() -> Vec<(&'static str, Value, Vec<&'static str>)> {
    vec![
        (
            "why",
            json!({"path": "src/db/conn.py", "git": false}),
            vec!["why", "src/db/conn.py"],
        ),
        (
            "why",
            json!({"path": "src/other/x.py"}),
            vec!["why", "src/other/x.py"],
        ),
        (
            "record",
            json!({"id": "2", "git": true}),
            vec!["record", "2", "--git"],
        ),
        (
            "context",
            json!({"paths": ["src/db/", "src/api/routes.py"], "budget": 300}),
            vec!["context", "src/db/", "src/api/routes.py", "--budget", "300"],
        ),
        ("check", json!({}), vec!["check"]),
        (
            "review",
            json!({"range": "HEAD~1..HEAD"}),
            vec!["review", "HEAD~1..HEAD"],
        ),
    ]
}

/// The command's `--json`.
fn command_json(repo: &GitRepo, command: &[&str]) -> Value {
    let mut command = command.to_vec();
    command.push("--json");
    let out = repo.run(&command);
    assert_eq!(out.code, Some(0), "{}", out.describe());
    out.json()
}

/// A tool as listed is read-only, its arguments single-typed, its answer typed.
fn assert_by_the_book(name: &str, tool: &Value) {
    assert_eq!(
        tool["annotations"]["readOnlyHint"], true,
        "{name}: {tool:#}"
    );
    let input = &tool["inputSchema"];
    let properties = input["properties"].as_object().expect("properties");
    assert!(!properties.is_empty(), "{name}: {input:#}");
    for (arg, schema) in properties {
        assert!(
            schema["type"].is_string(),
            "{name}.{arg}: one type, not {}",
            schema["type"]
        );
        assert!(schema.get("default").is_none(), "{name}.{arg}: {schema}");
        assert!(schema.get("format").is_none(), "{name}.{arg}: {schema}");
    }
    let output = &tool["outputSchema"];
    assert_eq!(output["type"], "object", "{name}: {output:#}");
    jsonschema::draft202012::new(output).expect("the outputSchema compiles");
}

/// A `why` answer on an ungoverned path names no record, no finding and no guide.
fn assert_names_nothing(answer: &Value) {
    assert_eq!(answer["query"]["decisions"], json!([]), "{answer:#}");
    for key in ["records", "docs", "findings"] {
        assert_eq!(answer[key], json!([]), "{key}: {answer:#}");
    }
}

#[test]
fn why_on_an_ungoverned_path_names_no_guide_and_a_governed_one_the_guides_citing_it() {
    let repo = repo();
    for no_index in [false, true] {
        let mut args = vec!["why", "src/other/x.py", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_names_nothing(&repo.run(&args).json());
        let mut args = vec!["why", "src/api/routes.py", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_eq!(
            repo.run(&args).json()["docs"],
            json!([{"path": "README.md", "cites": ["ADR-0002"]}])
        );
        let mut args = vec!["record", "ADR-0001", "--json"];
        args.extend(no_index.then_some("--no-index"));
        assert_eq!(repo.run(&args).json()["docs"], json!([]));
    }
    // The full check still lists every guide.
    assert_eq!(
        repo.run(&["check", "--json"]).json()["docs"],
        json!([{"path": "README.md", "cites": ["ADR-0002"]}])
    );
}

#[test]
fn rmcp_s_client_sees_read_only_typed_tools_and_structured_answers() {
    use rmcp::model::CallToolRequestParams;

    let repo = repo();
    crate::agents::with_rmcp_client(&repo, async |client| {
        let tools = client.list_all_tools().await.unwrap();
        assert_eq!(tools.len(), 5);
        let mut validators = std::collections::HashMap::new();
        for tool in &tools {
            let listed = serde_json::to_value(tool).unwrap();
            assert_by_the_book(&tool.name, &listed);
            let validator = jsonschema::draft202012::new(&listed["outputSchema"]).unwrap();
            validators.insert(tool.name.to_string(), validator);
        }
        let call = |name: &'static str, args: Value| {
            let client = &client;
            async move {
                let mut params = CallToolRequestParams::new(name);
                params.arguments = args.as_object().cloned();
                client.call_tool(params).await.expect("a tool answer")
            }
        };
        // Typed, and the same written as strings, as a command line types them.
        let mut cases = calls();
        cases.push((
            "context",
            json!({"paths": ["src/db/"], "budget": "200", "git": "false"}),
            vec!["context", "src/db/", "--budget", "200"],
        ));
        cases.push((
            "why",
            json!({"path": "src/db/conn.py", "git": " true "}),
            vec!["why", "src/db/conn.py", "--git"],
        ));
        for (tool, args, command) in cases {
            let result = call(tool, args.clone()).await;
            let listed = serde_json::to_value(&result).unwrap();
            assert_ne!(result.is_error, Some(true), "{tool} {args}: {listed:#}");
            let structured = result
                .structured_content
                .clone()
                .expect("structuredContent");
            let text = listed["content"][0]["text"].as_str().expect("a text");
            assert_eq!(
                serde_json::from_str::<Value>(text).unwrap(),
                structured,
                "{tool} {args}: the text and structuredContent differ"
            );
            let errors: Vec<String> = validators[tool]
                .iter_errors(&structured)
                .map(|e| format!("{}: {e}", e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{tool} {args}: {errors:#?}");
            assert_eq!(structured, command_json(&repo, &command), "{tool} {args}");
        }
        let ungoverned = call("why", json!({"path": "src/other/x.py"})).await;
        assert_names_nothing(&ungoverned.structured_content.unwrap());
        // A string that is no number is still refused, saying what it is.
        for (args, says) in [
            (json!({"paths": ["src/db/"], "budget": "2x"}), "\"2x\""),
            (json!({"paths": ["src/db/"], "budget": -3}), "-3"),
            (json!({"paths": ["src/db/"], "git": "yes"}), "\"yes\""),
        ] {
            let refused = call("context", args.clone()).await;
            assert_eq!(refused.is_error, Some(true), "{args}");
            let listed = serde_json::to_value(&refused).unwrap();
            let text = listed["content"][0]["text"].as_str().unwrap_or_default();
            assert!(text.contains(says), "{args}: {text}");
        }
    });
}

// ----- the clients agents use: skipped when `.ci/run` could not install them -----

/// Where `.ci/run` installs a client's files: `$HOME/.cache/context-graph-ci/NAME` of the user
/// running the tests (not the hermetic HOME of the commands).
fn ci_cache(name: &str) -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    Some(
        PathBuf::from(home)
            .join(".cache/context-graph-ci")
            .join(name),
    )
}

/// Runs `cmd`, killed after `limit`: a client gone silent fails the test rather than hanging it.
fn output_within(mut cmd: Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the client");
    let deadline = Instant::now() + limit;
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let read = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let (out, err) = (read(Box::new(stdout)), read(Box::new(stderr)));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the client did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

/// The Python that has the MCP SDK and jsonschema: `MCP_PYTHON`, else the virtual environment
/// `.ci/run` makes.
fn python_with_the_sdk() -> Option<PathBuf> {
    let python = std::env::var_os("MCP_PYTHON")
        .map(PathBuf::from)
        .or_else(|| Some(ci_cache("mcp-python")?.join("venv/bin/python")))
        .filter(|p| p.is_file())?;
    let imports = Command::new(&python)
        .args(["-c", "import mcp, jsonschema"])
        .output()
        .ok()?;
    imports.status.success().then_some(python)
}

#[test]
fn the_python_sdk_lists_the_tools_calls_each_and_validates_every_answer() {
    let Some(python) = python_with_the_sdk() else {
        crate::skip::skipped("the MCP Python SDK is not installed (pip install mcp jsonschema into ~/.cache/context-graph-ci/mcp-python/venv, or set MCP_PYTHON)");
        return;
    };
    let repo = repo();
    let calls = calls();
    let asked: Vec<Value> = calls.iter().map(|(t, a, _)| json!([t, a])).collect();
    let mut cmd = repo.command(&python);
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/mcp_clients.py"))
        .arg(BIN)
        .arg(repo.path())
        .arg(Value::from(asked).to_string());
    let out = output_within(cmd, Duration::from_secs(120));
    assert!(
        out.status.success(),
        "the SDK's session failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: Value = serde_json::from_slice(&out.stdout).expect("the script's JSON");
    let tools = seen["tools"].as_object().expect("tools");
    assert_eq!(tools.len(), 5, "{seen:#}");
    for (name, tool) in tools {
        assert_eq!(tool["read_only"], true, "{name}: {tool:#}");
        assert_eq!(tool["has_output_schema"], true, "{name}: {tool:#}");
        let listed = json!({"annotations": {"readOnlyHint": true}, "inputSchema": tool["input_schema"], "outputSchema": {"type": "object"}});
        assert_by_the_book(name, &listed);
    }
    for ((tool, args, command), call) in calls.iter().zip(seen["calls"].as_array().unwrap()) {
        assert_eq!(call["is_error"], false, "{tool} {args}: {}", call["text"]);
        assert_eq!(
            call["structured"],
            command_json(&repo, command),
            "{tool} {args}"
        );
    }
    assert_names_nothing(&seen["calls"][1]["structured"]);
}

/// `node` and the MCP Inspector's CLI: `MCP_INSPECTOR` (its `cli/build/cli.js`), else where
/// `.ci/run` installs it.
fn inspector() -> Option<(PathBuf, PathBuf)> {
    let node = crate::pictures::on_path(&["node", "nodejs"])?;
    let cli = std::env::var_os("MCP_INSPECTOR")
        .map(PathBuf::from)
        .or_else(|| {
            Some(
                ci_cache("mcp-inspector")?
                    .join("node_modules/@modelcontextprotocol/inspector/cli/build/cli.js"),
            )
        })
        .filter(|p| p.is_file())?;
    Some((node, cli))
}

#[test]
fn the_inspector_cli_calls_the_tools_with_arguments_typed_from_their_schemas() {
    let Some((node, cli)) = inspector() else {
        crate::skip::skipped("the MCP Inspector is not installed (npm install @modelcontextprotocol/inspector into ~/.cache/context-graph-ci/mcp-inspector, or set MCP_INSPECTOR to its cli/build/cli.js)");
        return;
    };
    let repo = repo();
    let inspect = |args: &[&str]| {
        let mut cmd = repo.command(&node);
        cmd.arg(&cli).arg("--cli").arg(BIN).arg("mcp").args(args);
        let out = output_within(cmd, Duration::from_secs(120));
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args:?}: {stderr}");
        // Ajv, inside the Inspector, warns of every format JSON Schema does not define.
        assert!(!stderr.contains("unknown format"), "{args:?}: {stderr}");
        serde_json::from_slice::<Value>(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {:?}", out.stdout))
    };
    let listed = inspect(&["--method", "tools/list"]);
    let tools = listed["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 5, "{listed:#}");
    for tool in tools {
        assert_by_the_book(tool["name"].as_str().unwrap_or_default(), tool);
    }
    let cases: [(&[&str], Vec<&str>); 3] = [
        (
            &["path=src/db/conn.py", "git=false"],
            vec!["why", "src/db/conn.py"],
        ),
        (&["path=src/other/x.py"], vec!["why", "src/other/x.py"]),
        (
            &["paths=[\"src/db/\"]", "budget=200", "git=true"],
            vec!["context", "src/db/", "--budget", "200", "--git"],
        ),
    ];
    for (args, command) in cases {
        let mut asked = vec!["--method", "tools/call", "--tool-name", command[0]];
        for arg in args {
            asked.extend(["--tool-arg", arg]);
        }
        let answer = inspect(&asked);
        assert_ne!(answer["isError"], true, "{asked:?}: {answer:#}");
        assert_eq!(
            answer["structuredContent"],
            command_json(&repo, &command),
            "{asked:?}"
        );
    }
}
