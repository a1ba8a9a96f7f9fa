//! The tools: their arguments (each a JSON Schema from its type) and how each becomes the
//! command's question, answered as the command's `--json` (docs/agents.md; ADR-0014).

use super::{diagnostics, Server};
use context_graph::app::{context::DEFAULT_BUDGET, review};
use context_graph::output::json;
use context_graph::{Ask, Session};
use rmcp::model::{JsonObject, Tool};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhyArgs {
    /// A path relative to the repository root (or absolute, inside it)
    path: String,
    /// Read git history: commits citing each record, and code changed since each decision
    /// (default: as the server was started)
    #[serde(default)]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordArgs {
    /// ADR-0004, ADR-4, adr-4, "ADR 4", or a bare number when one record has it
    id: String,
    /// Read git history: commits citing the record, and code changed since it was decided
    #[serde(default)]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// The paths about to be edited, relative to the repository root; they share one budget
    paths: Vec<String>,
    /// The budget in tokens, counted as characters/4 (default 2000)
    #[serde(default)]
    budget: Option<usize>,
    /// Also list the commits since each decision that did not cite it
    #[serde(default)]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckArgs {
    /// Read git history: commits citing each record, and drift since each decision
    #[serde(default)]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewArgs {
    /// BASE..HEAD, BASE...HEAD or BASE (to HEAD); default: the current branch's upstream to HEAD
    #[serde(default)]
    range: Option<String>,
}

fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    let value = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
    let mut object = match value {
        serde_json::Value::Object(o) => o,
        _ => JsonObject::new(),
    };
    // The title is the Rust type's name: of no use to a client.
    object.remove("title");
    Arc::new(object)
}

/// Every tool, with its description and the JSON Schema of its arguments.
pub fn list() -> Vec<Tool> {
    vec![
        Tool::new(
            "context",
            "What to read before editing these paths: the current decisions that govern them, \
             in their own words (decision and consequences first, then context), within a token \
             budget; superseded ones one line each; then the records related to them (not \
             governing), each with its evidence. The JSON of `context-graph context PATH… --json`.",
            schema::<ContextArgs>(),
        ),
        Tool::new(
            "why",
            "The decisions that govern a path, current ones first; then at most three records \
             related to it (not governing), ranked, each with its evidence (`query.related`). \
             The JSON of `context-graph why PATH --json`.",
            schema::<WhyArgs>(),
        ),
        Tool::new(
            "record",
            "One decision record: its fields, edges, findings, and with git its commits and \
             drift. The JSON of `context-graph record ID --json`.",
            schema::<RecordArgs>(),
        ),
        Tool::new(
            "check",
            "The full check of every decision record. The JSON of `context-graph check --json`.",
            schema::<CheckArgs>(),
        ),
        Tool::new(
            "review",
            "The decisions a range of commits touches, and whether the range cites them. The \
             JSON of `context-graph review RANGE --json`.",
            schema::<ReviewArgs>(),
        ),
    ]
}

pub enum CallError {
    UnknownTool,
    /// A tool error: the message the client shows.
    Failed(String),
}

fn parse<T: DeserializeOwned>(tool: &str, args: serde_json::Value) -> Result<T, CallError> {
    serde_json::from_value(args)
        .map_err(|e| CallError::Failed(format!("{tool}: bad arguments: {e}")))
}

/// Answers one call as the command's `--json`.
pub fn call(server: &Server, name: &str, args: serde_json::Value) -> Result<String, CallError> {
    let key = format!("{name} {args}");
    let failed = |e: anyhow::Error| CallError::Failed(format!("context-graph: {e}"));
    let ask = |git: Option<bool>, ask: Ask| {
        server
            .with_session(git, |s| {
                let answer = s.answer(&ask, None)?;
                diagnostics(&answer.diagnostics);
                Ok(json::report(&answer.report))
            })
            .map_err(failed)
    };
    match name {
        "why" => {
            let a: WhyArgs = parse(name, args)?;
            let paths = [a.path.clone()];
            server
                .kept(key, a.git, &paths, |s| {
                    let answer = s.answer(&Ask::Why(a.path), None)?;
                    diagnostics(&answer.diagnostics);
                    Ok(json::report(&answer.report))
                })
                .map_err(failed)
        }
        "record" => {
            let a: RecordArgs = parse(name, args)?;
            ask(a.git, Ask::Record(a.id))
        }
        "check" => {
            let a: CheckArgs = parse(name, args)?;
            ask(a.git, Ask::Check)
        }
        "context" => {
            let a: ContextArgs = parse(name, args)?;
            if a.paths.is_empty() {
                return Err(CallError::Failed("context: name at least one path".into()));
            }
            server
                .kept(key, a.git, &a.paths, |s| {
                    let answer = s.context(&a.paths, a.budget.unwrap_or(DEFAULT_BUDGET), None)?;
                    diagnostics(&answer.diagnostics);
                    Ok(json::report(&answer.report))
                })
                .map_err(failed)
        }
        "review" => {
            let a: ReviewArgs = parse(name, args)?;
            server
                .with_session(None, |s| {
                    let reviewed = review::review(s, a.range.as_deref())?;
                    diagnostics(&reviewed.diagnostics);
                    Ok(json::report(&reviewed.report))
                })
                .map_err(failed)
        }
        _ => Err(CallError::UnknownTool),
    }
}

/// Every record: (id, title, path), for the resource list.
pub fn records(session: &mut Session) -> anyhow::Result<Vec<(String, String, String)>> {
    let answer = session.answer(&Ask::Check, None)?;
    Ok(answer
        .report
        .records
        .into_iter()
        .map(|r| (r.id, r.title, r.path))
        .collect())
}

/// A record's Markdown, as its file holds it.
pub fn record_text(session: &mut Session, id: &str) -> anyhow::Result<String> {
    let answer = session.answer(&Ask::Record(id.to_string()), None)?;
    let record = answer
        .report
        .records
        .first()
        .ok_or_else(|| anyhow::anyhow!("no record has the id {id}"))?;
    context_graph::app::context::record_text(session.root(), &record.path)
        .map_err(|e| anyhow::anyhow!("{}: {e}", record.path))
}
