//! How a line the client sends is judged before rmcp reads it (ADR-0014; docs/agents.md): as
//! JSON-RPC 2.0 says, and as the MCP revision the server announced says of batches. rmcp's
//! stdio transport drops a line it cannot parse without a word, and answers an object it cannot
//! read as a message with no `id`; a client waiting for an answer would wait forever, or could
//! not tell which request failed. A line that is not UTF-8, not JSON or nested too deep gets the
//! parse error (-32700, `id: null`); a value that is not an object an invalid request (-32600,
//! `id: null`); an object rmcp cannot read (judged with rmcp's own message type) an invalid
//! request naming why, with its `id` when it has a usable one, else `null`, or nothing when it
//! is a notification. A batch (a JSON array) is taken only in 2025-03-26, the one revision with
//! batches, and refused with an invalid request (`id: null`) otherwise (2025-06-18 removed
//! them).

use rmcp::model::ClientJsonRpcMessage;
use serde::Serialize;
use serde_json::Value;

/// The one revision of MCP that takes batches: 2025-03-26 added them, 2025-06-18 removed them.
const BATCH_REVISION: &str = "2025-03-26";

/// What a line asks of the server.
#[derive(Debug, PartialEq)]
pub(super) enum Judged {
    /// A JSON object: a message for rmcp.
    Message,
    /// Blank, or a notification rmcp cannot read: nothing (a notification is never answered).
    Blank,
    /// The error response to send (one line of JSON).
    Error(String),
    /// A batch the announced revision takes.
    Batch(Vec<Element>),
}

/// One element of a batch.
#[derive(Debug, PartialEq)]
pub(super) enum Element {
    /// A message for rmcp (its line), with its id when it is a request.
    Message {
        line: String,
        request: Option<Value>,
    },
    /// The error response to its element.
    Error(String),
    /// A notification rmcp cannot read: nothing.
    Ignored,
}

/// A JSON-RPC error response with `id`, its keys in the order rmcp writes its own.
fn error_with_id(code: i64, message: String, id: Value) -> String {
    #[derive(Serialize)]
    struct Response {
        jsonrpc: &'static str,
        id: Value,
        error: Error,
    }
    #[derive(Serialize)]
    struct Error {
        code: i64,
        message: String,
    }
    let response = Response {
        jsonrpc: "2.0",
        id,
        error: Error { code, message },
    };
    serde_json::to_string(&response).unwrap_or_default()
}

/// A JSON-RPC error response with `id: null`.
pub(super) fn error(code: i64, message: String) -> String {
    error_with_id(code, message, Value::Null)
}

const PARSE_ERROR: i64 = -32700;
pub(super) const INVALID_REQUEST: i64 = -32600;

/// A JSON object, judged as rmcp will read it.
enum Object {
    /// rmcp reads it: with its id when it is a request (it has a `method` and an `id`).
    Message(Option<Value>),
    Error(String),
    Ignored,
}

fn object(value: Value) -> Object {
    let id = value.get("id").cloned();
    let request = value.get("method").is_some();
    match serde_json::from_value::<ClientJsonRpcMessage>(value) {
        Ok(_) => Object::Message(id.filter(|_| request)),
        // A notification (no id) is never answered, not even with an error.
        Err(_) if id.is_none() => Object::Ignored,
        Err(e) => {
            // Its id, when that is one (a number or a string); JSON-RPC's null otherwise.
            let id = id.filter(|id| id.is_number() || id.is_string());
            Object::Error(error_with_id(
                INVALID_REQUEST,
                format!("Invalid Request: {e}"),
                id.unwrap_or(Value::Null),
            ))
        }
    }
}

/// Judges one line (its `\n` taken off), the server having announced `announced`.
pub(super) fn judge(line: &[u8], announced: Option<&str>) -> Judged {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            return Judged::Error(error(
                PARSE_ERROR,
                format!("Parse error: not UTF-8 (at byte {})", e.valid_up_to()),
            ))
        }
    };
    if text.trim().is_empty() {
        return Judged::Blank;
    }
    // Parsed whole (serde_json stops at 128 levels of nesting), as rmcp will parse it.
    match serde_json::from_str::<serde_json::Value>(text) {
        Err(e) => Judged::Error(error(PARSE_ERROR, format!("Parse error: {e}"))),
        Ok(value @ Value::Object(_)) => match object(value) {
            Object::Message(_) => Judged::Message,
            Object::Error(e) => Judged::Error(e),
            Object::Ignored => Judged::Blank,
        },
        Ok(Value::Array(items)) => batch(items, announced),
        Ok(_) => Judged::Error(error(
            INVALID_REQUEST,
            "Invalid Request: a message is a JSON object".to_string(),
        )),
    }
}

/// A batch: its elements when the announced revision takes batches, else the error saying why
/// not.
fn batch(items: Vec<Value>, announced: Option<&str>) -> Judged {
    let refused = |why: String| Judged::Error(error(INVALID_REQUEST, why));
    match announced {
        None => refused(
            "Invalid Request: a batch (a JSON array) before initialize; send one message a line"
                .to_string(),
        ),
        Some(revision) if revision != BATCH_REVISION => refused(format!(
            "Invalid Request: MCP {revision}, the revision this session speaks, takes no \
             batches (JSON arrays; only {BATCH_REVISION} did); send one message a line"
        )),
        Some(_) if items.is_empty() => refused("Invalid Request: an empty batch".to_string()),
        Some(_) => Judged::Batch(
            items
                .into_iter()
                .map(|item| match item {
                    Value::Object(_) => {
                        let line = item.to_string();
                        match object(item) {
                            Object::Message(request) => Element::Message { line, request },
                            Object::Error(e) => Element::Error(e),
                            Object::Ignored => Element::Ignored,
                        }
                    }
                    _ => Element::Error(error(
                        INVALID_REQUEST,
                        "Invalid Request: a message is a JSON object".to_string(),
                    )),
                })
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(j: Judged) -> i64 {
        match j {
            Judged::Error(e) => serde_json::from_str::<serde_json::Value>(&e).unwrap()["error"]
                ["code"]
                .as_i64()
                .unwrap(),
            other => panic!("not an error: {other:?}"),
        }
    }

    #[test]
    fn each_kind_of_line_is_judged_as_json_rpc_says() {
        assert_eq!(
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, None),
            Judged::Message
        );
        assert_eq!(judge(b"  \r", None), Judged::Blank);
        assert_eq!(code(judge(b"not json {", None)), PARSE_ERROR);
        assert_eq!(code(judge(b"{\"a\":\"\xff\"}", None)), PARSE_ERROR);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(code(judge(deep.as_bytes(), None)), PARSE_ERROR);
        assert_eq!(
            code(judge(
                br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
                None
            )),
            INVALID_REQUEST
        );
        assert_eq!(code(judge(b"42", None)), INVALID_REQUEST);
    }

    fn parsed(line: &str) -> Value {
        serde_json::from_str(line).expect("JSON")
    }

    #[test]
    fn an_object_rmcp_cannot_read_is_answered_with_its_id_or_dropped_when_a_notification() {
        let Judged::Error(e) = judge(br#"{"id":6,"method":"ping"}"#, None) else {
            panic!("no jsonrpc: an error")
        };
        let e = parsed(&e);
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(6), json!(-32600))
        );
        let Judged::Error(e) = judge(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#, None)
        else {
            panic!("an object as id: an error")
        };
        assert_eq!(parsed(&e)["id"], Value::Null, "{e}");
        assert_eq!(
            judge(br#"{"method":"notifications/initialized"}"#, None),
            Judged::Blank
        );
    }

    #[test]
    fn a_batch_is_taken_only_in_the_revision_that_has_batches() {
        let line = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},7]"#;
        for refused in [
            None,
            Some("2025-06-18"),
            Some("2025-11-25"),
            Some("2024-11-05"),
        ] {
            assert_eq!(code(judge(line, refused)), INVALID_REQUEST, "{refused:?}");
        }
        assert_eq!(code(judge(b"[]", Some(BATCH_REVISION))), INVALID_REQUEST);
        let Judged::Batch(elements) = judge(line, Some(BATCH_REVISION)) else {
            panic!("a batch")
        };
        assert_eq!(elements.len(), 3);
        assert!(matches!(&elements[0], Element::Message { request: Some(id), .. } if *id == 1));
        assert!(matches!(
            &elements[1],
            Element::Message { request: None, .. }
        ));
        assert!(matches!(&elements[2], Element::Error(_)));
    }
}
