//! `context-graph schema`: the JSON Schema (draft 2020-12) of every `--json` document, generated
//! from the types that serialise them (schemars), so the schema cannot drift from the output
//! (docs/pictures.md; ADR-0015).

use crate::model::{
    Graph, HooksReport, IndexStatus, IndexSummary, Report, ScopeReport, WatchRefresh, WriteReport,
};
use schemars::generate::SchemaSettings;
use serde_json::{json, Value};

/// The documents, each with the commands that print it.
const DOCUMENTS: &str = "Report: the full check, `why`, `record`, `review`, `context` and `coverage`; IndexStatus: \
`index --status`; IndexSummary: `index`; HooksReport: `install-hooks` and `uninstall-hooks`; \
Graph: `graph --format json` (or `graph --json`); WatchRefresh: each line of `watch --json`; WriteReport: `init`, `new`, `supersede`, `amend` and \
`status`; ScopeReport: `scope`.";

/// The schema document: `anyOf` the documents, each a `$ref` into `$defs`. Objects are closed
/// (`additionalProperties: false`): the schema of this version names every key it prints; a
/// later version may add keys (never rename or remove one), with its own schema.
pub fn document() -> Value {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let documents = [
        generator.subschema_for::<Report>(),
        generator.subschema_for::<IndexStatus>(),
        generator.subschema_for::<IndexSummary>(),
        generator.subschema_for::<HooksReport>(),
        generator.subschema_for::<Graph>(),
        generator.subschema_for::<WatchRefresh>(),
        generator.subschema_for::<WriteReport>(),
        generator.subschema_for::<ScopeReport>(),
    ];
    let mut defs = Value::Object(generator.take_definitions(true));
    close_objects(&mut defs);
    let any_of: Vec<Value> = documents.into_iter().map(Value::from).collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "context-graph --json documents",
        "description": DOCUMENTS,
        "anyOf": any_of,
        "$defs": defs,
    })
}

/// The schema of one document, `Report` (every answer but the index's, the hooks', the graph's
/// and the writing commands'), as a root object with its own `$defs` and closed objects: what
/// the MCP tools announce as their `outputSchema` (docs/agents.md; ADR-0014).
pub fn report() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let mut schema = Value::from(generator.into_root_schema_for::<Report>());
    close_objects(&mut schema);
    schema
}

/// Sets `additionalProperties: false` on every object schema that lists its properties and
/// says nothing of others.
fn close_objects(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                map.insert("additionalProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(close_objects);
        }
        Value::Array(items) => items.iter_mut().for_each(close_objects),
        _ => {}
    }
}

/// The `$defs` names of the documents, in the order of `anyOf`.
pub fn document_names() -> Vec<String> {
    let doc = document();
    let refs = doc["anyOf"].as_array().cloned().unwrap_or_default();
    refs.iter()
        .filter_map(|r| r["$ref"].as_str())
        .map(|r| r.trim_start_matches("#/$defs/").to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_is_a_closed_object_in_defs() {
        let doc = document();
        let names = document_names();
        assert_eq!(
            names,
            [
                "Report",
                "IndexStatus",
                "IndexSummary",
                "HooksReport",
                "Graph",
                "WatchRefresh",
                "WriteReport",
                "ScopeReport"
            ]
        );
        for name in names {
            let def = &doc["$defs"][&name];
            assert_eq!(def["type"], "object", "{name}: {def:#}");
            assert_eq!(def["additionalProperties"], false, "{name}: {def:#}");
        }
        let _: &serde_json::Map<String, Value> =
            doc["$defs"].as_object().expect("$defs is an object");
    }
}
