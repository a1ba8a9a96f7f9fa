//! The tools: their arguments (each a JSON Schema from its type, one type a property, an
//! optional one optional by its absence), the schema of their answer (the command's `--json`
//! document, `Report`), and how each becomes the command's question (docs/agents.md; ADR-0014).

use super::{diagnostics, Server};
use context_graph::app::{context::DEFAULT_BUDGET, review};
use context_graph::output::json;
use context_graph::{Ask, Session};
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WhyArgs {
    /// A path relative to the repository root (or absolute, inside it)
    path: String,
    /// Read git history: commits citing each record, and code changed since each decision
    /// (default: as the server was started)
    #[serde(default, deserialize_with = "lenient_bool")]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordArgs {
    /// ADR-0004, ADR-4, adr-4, "ADR 4", or a bare number when one record has it
    id: String,
    /// Read git history: commits citing the record, and code changed since it was decided
    #[serde(default, deserialize_with = "lenient_bool")]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// The paths about to be edited, relative to the repository root; they share one budget
    paths: Vec<String>,
    /// The budget in tokens, counted as characters/4 (default 2000)
    #[serde(default, deserialize_with = "lenient_count")]
    budget: Option<usize>,
    /// Also list the commits since each decision that did not cite it
    #[serde(default, deserialize_with = "lenient_bool")]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckArgs {
    /// Read git history: commits citing each record, and drift since each decision
    #[serde(default, deserialize_with = "lenient_bool")]
    git: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewArgs {
    /// BASE..HEAD, BASE...HEAD or BASE (to HEAD); default: the current branch's upstream to HEAD
    #[serde(default)]
    range: Option<String>,
}

/// An optional boolean, also written as the string `"true"` or `"false"`.
fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    lenient(d, "a boolean")
}

/// An optional count, also written as a string of digits (`"200"`).
fn lenient_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    lenient(d, "a non-negative integer")
}

/// An optional `T` (absent or `null`: none), or a string that parses as one: a client that
/// types every argument it is given on a command line as a string (the MCP Inspector's CLI)
/// is understood.
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned + FromStr>(
    d: D,
    expected: &str,
) -> Result<Option<T>, D::Error> {
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => text.trim().parse().map(Some).map_err(|_| {
            D::Error::custom(format!(
                "invalid value: string {text:?}, expected {expected}"
            ))
        }),
        Some(value) => serde_json::from_value(value)
            .map(Some)
            .map_err(D::Error::custom),
    }
}

/// The JSON Schema of the arguments `T`, each property of one type: an optional argument is
/// optional by its absence from `required` (`"type": "integer"`), not typed `["integer",
/// "null"]` with `"default": null`, which clients that type what they send by the schema
/// (the MCP Inspector's CLI) read as no type at all.
fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    let value = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
    let mut object = match value {
        Value::Object(o) => o,
        _ => JsonObject::new(),
    };
    // The title is the Rust type's name: of no use to a client.
    object.remove("title");
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(single_typed);
    }
    let mut value = Value::Object(object);
    standard_formats(&mut value);
    match value {
        Value::Object(object) => Arc::new(object),
        _ => Arc::new(JsonObject::new()),
    }
}

/// Drops the `format`s schemars gives Rust's number types (`uint`, `int32`, `double`, …):
/// JSON Schema defines none of them, and validators (Ajv, in the MCP Inspector) warn about each
/// one; `minimum` still says a count is not negative.
fn standard_formats(value: &mut Value) {
    const RUST_NUMBERS: [&str; 12] = [
        "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
        "float", "double",
    ];
    match value {
        Value::Object(map) => {
            if let Some(Value::String(format)) = map.get("format") {
                if RUST_NUMBERS.contains(&format.as_str()) {
                    map.remove("format");
                }
            }
            map.values_mut().for_each(standard_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(standard_formats),
        _ => {}
    }
}

/// Makes one property's schema single-typed: `null` taken out of its `type`, a `default` of
/// `null` dropped.
fn single_typed(property: &mut Value) {
    let Value::Object(map) = property else {
        return;
    };
    if let Some(Value::Array(types)) = map.get("type") {
        let mut types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        let single = match types.len() {
            1 => types.remove(0),
            _ => Value::Array(types),
        };
        map.insert("type".into(), single);
    }
    if map.get("default") == Some(&Value::Null) {
        map.remove("default");
    }
}

/// The schema of every tool's answer: the command's `--json` document (`Report`), made once.
fn output_schema() -> Arc<JsonObject> {
    static SCHEMA: OnceLock<Arc<JsonObject>> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let mut schema = context_graph::output::schema::report();
            standard_formats(&mut schema);
            match schema {
                Value::Object(o) => Arc::new(o),
                _ => Arc::new(JsonObject::new()),
            }
        })
        .clone()
}

/// A tool that reads the repository and changes nothing (the index it keeps is a cache):
/// `readOnlyHint`, and its answer typed by [`output_schema`].
fn read_tool(name: &'static str, description: &'static str, input: Arc<JsonObject>) -> Tool {
    Tool::new(name, description, input)
        .with_raw_output_schema(output_schema())
        .with_annotations(ToolAnnotations::new().read_only(true).open_world(false))
}

/// Every tool, with its description and the JSON Schema of its arguments.
pub fn list() -> Vec<Tool> {
    vec![
        read_tool(
            "context",
            "What to read before editing these paths: the current decisions that govern them, \
             in their own words (decision and consequences first, then context), within a token \
             budget; superseded ones one line each; then the records related to them (not \
             governing), each with its evidence. The JSON of `context-graph context PATH… --json`.",
            schema::<ContextArgs>(),
        ),
        read_tool(
            "why",
            "The decisions that govern a path, current ones first; then at most three records \
             related to it (not governing), ranked, each with its evidence (`query.related`). \
             The JSON of `context-graph why PATH --json`.",
            schema::<WhyArgs>(),
        ),
        read_tool(
            "record",
            "One decision record: its fields, edges, findings, and with git its commits and \
             drift. The JSON of `context-graph record ID --json`.",
            schema::<RecordArgs>(),
        ),
        read_tool(
            "check",
            "The full check of every decision record. The JSON of `context-graph check --json`.",
            schema::<CheckArgs>(),
        ),
        read_tool(
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
