//! `context-graph mcp`: a Model Context Protocol server over stdio (docs/agents.md; ADR-0014).
//!
//! The second front door beside `cli`: each tool call becomes the same question of `app` the
//! command asks, answered by one resident [`Session`] and rendered by `output` as the command's
//! `--json`. Nothing here reaches below `app`. stdout carries protocol messages only; the
//! answers' diagnostics go to stderr. A malformed line is answered with JSON-RPC's error
//! (`lines`). The server ends, exit 0, when the client closes stdin.

mod judge;
mod lines;
mod tools;

use context_graph::{Options, Session};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use std::collections::HashMap;
use std::sync::Mutex;

/// Serves until the client closes stdin.
pub fn run(opts: Options) -> anyhow::Result<u8> {
    // The root is resolved and the repository opened before the first message: a bad --root
    // is exit 2 with one line, as for any command.
    let server = Server::new(opts)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        // Every line is judged before rmcp reads it (`lines`): rmcp gets the messages through
        // one pipe and writes through another, whose lines share stdout with the answers of `lines`.
        let (rmcp_in, to_rmcp) = tokio::io::duplex(64 * 1024);
        let (rmcp_out, from_rmcp) = tokio::io::duplex(64 * 1024);
        let (answers, answers_out) = tokio::sync::mpsc::unbounded_channel();
        let announced = lines::Announced::default();
        tokio::spawn(lines::read(
            tokio::io::stdin(),
            to_rmcp,
            answers,
            announced.clone(),
        ));
        let writer = tokio::spawn(lines::write(
            from_rmcp,
            answers_out,
            announced,
            tokio::io::stdout(),
        ));
        let served = async {
            let running = server
                .serve((rmcp_in, rmcp_out))
                .await
                .map_err(|e| anyhow::anyhow!("mcp: {e}"))?;
            running
                .waiting()
                .await
                .map_err(|e| anyhow::anyhow!("mcp: {e}"))?;
            anyhow::Ok(())
        }
        .await;
        // What is left to write goes out (rmcp's pipe has closed; the answers end with stdin).
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
        served
    })?;
    // The runtime's stdin reader may still be blocked in a read it cannot cancel: the process
    // ends here rather than waiting for it.
    std::mem::forget(runtime);
    Ok(0)
}

/// The resident sessions: one with the server's `--git` setting, and one with the other,
/// opened when a call first asks for it.
pub struct Server {
    opts: Options,
    sessions: Mutex<[Option<Session>; 2]>,
    /// `why` and `context` answers about files, by call, with the state they were given at:
    /// served again while the state is the same (see `app::State`).
    answers: Mutex<Kept>,
}

impl Server {
    fn new(opts: Options) -> anyhow::Result<Server> {
        let first = Session::open(opts.clone())?;
        let kept = Kept {
            stamper: context_graph::app::Stamper::new(first.root()),
            answers: HashMap::new(),
        };
        let mut sessions = [None, None];
        sessions[usize::from(opts.git)] = Some(first);
        Ok(Server {
            opts,
            sessions: Mutex::new(sessions),
            answers: Mutex::new(kept),
        })
    }

    fn git(&self, git: Option<bool>) -> bool {
        git.unwrap_or(self.opts.git)
    }

    /// The answer to the call `key` about `paths`: the one given before while what it depends
    /// on is unchanged, else `f`'s, kept when the state is settled. Only answers about files
    /// are kept (a folder's answer depends on the markers of every file in it).
    fn kept(
        &self,
        key: String,
        git: Option<bool>,
        paths: &[String],
        f: impl FnOnce(&mut Session) -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        let git = self.git(git);
        let key = format!("{key} git={git}");
        let mut kept = self.answers.lock().unwrap_or_else(|p| p.into_inner());
        let Kept { stamper, answers } = &mut *kept;
        let state = self.with_session(Some(git), |s| {
            let files = paths.iter().all(|p| !s.root().join(p).is_dir());
            Ok(files.then(|| stamper.state(s, paths)))
        })?;
        let Some(state) = state else {
            drop(kept);
            return self.with_session(Some(git), f);
        };
        if let Some((then, answer)) = answers.get(&key) {
            if *then == state {
                return Ok(answer.clone());
            }
        }
        let answer = self.with_session(Some(git), f)?;
        if state.settled() {
            if answers.len() > 256 {
                answers.clear();
            }
            answers.insert(key, (state, answer.clone()));
        }
        Ok(answer)
    }

    /// Runs `f` on the resident session for `git` (the server's setting when `None`). A panic
    /// inside is caught and becomes an error: one bad call never ends the server.
    fn with_session<T>(
        &self,
        git: Option<bool>,
        f: impl FnOnce(&mut Session) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        let git = self.git(git);
        let mut sessions = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let slot = &mut sessions[usize::from(git)];
        if slot.is_none() {
            *slot = Some(Session::open(Options {
                git,
                ..self.opts.clone()
            })?);
        }
        let session = slot.as_mut().expect("opened above");
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(session))) {
            Ok(result) => result,
            Err(_) => {
                // The session may be half-way through something: the next call opens anew.
                *slot = None;
                Err(anyhow::anyhow!(
                    "internal error while answering; the session was reopened"
                ))
            }
        }
    }
}

/// The answers kept, and the stamper of the state they were given at.
struct Kept {
    stamper: context_graph::app::Stamper,
    answers: HashMap<String, (context_graph::app::State, String)>,
}

/// Diagnostics of an answer, on stderr (never stdout: it carries the protocol).
fn diagnostics(lines: &[String]) {
    for line in lines {
        eprintln!("context-graph: {line}");
    }
}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new(
            "context-graph",
            env!("CARGO_PKG_VERSION"),
        ))
        .with_instructions(
            "Before editing a file, call `context` with its path: the architecture decisions \
             that govern it, in their own words. `why` lists them, `record` shows one, `check` \
             checks every record, `review` the commits of a range. Each record is a resource \
             decision://ID.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let result = match tools::call(self, &request.name, args) {
            // The document twice: typed by the tool's `outputSchema`, and as the command's
            // text for clients that read only `content`.
            Ok(json) => {
                let structured = serde_json::from_str::<serde_json::Value>(&json).ok();
                let mut result = CallToolResult::success(vec![ContentBlock::text(json)]);
                result.structured_content = structured;
                result
            }
            Err(tools::CallError::UnknownTool) => {
                return Err(ErrorData::invalid_params(
                    format!("no tool named {}", request.name),
                    None,
                ))
            }
            Err(tools::CallError::Failed(message)) => tool_error(message),
        };
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let records = self
            .with_session(None, tools::records)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let resources = records
            .into_iter()
            .map(|(id, title, path)| {
                Resource::new(format!("decision://{id}"), id)
                    .with_title(title)
                    .with_description(path)
                    .with_mime_type("text/markdown")
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(id) = request.uri.strip_prefix("decision://") else {
            return Err(ErrorData::resource_not_found(
                format!("{}: a decision is read as decision://ID", request.uri),
                None,
            ));
        };
        let text = self
            .with_session(None, |s| tools::record_text(s, id))
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        let contents =
            ResourceContents::text(text, request.uri.clone()).with_mime_type("text/markdown");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}
