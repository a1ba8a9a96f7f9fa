//! The lines between stdio and rmcp (ADR-0014): every line the client sends is judged here
//! before rmcp reads it, because rmcp's stdio transport drops what it cannot parse without a
//! word, and a client waiting for an answer would wait forever. A line that is not UTF-8, not
//! JSON or nested too deep is answered with JSON-RPC's parse error (-32700); a batch (a JSON
//! array, which MCP does not take), a value that is not an object, or a line over
//! [`MAX_REQUEST`] with an invalid request (-32600), both with `id: null`; a longer line is
//! never held in memory whole. A JSON object goes on to rmcp, which answers it. The server's
//! own messages and these errors share stdout a whole line at a time.

use serde_json::json;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// The longest request read: a longer line is answered with an error and skipped.
pub const MAX_REQUEST: usize = 4 * 1024 * 1024;

/// What a line asks of the server.
#[derive(Debug, PartialEq)]
enum Judged {
    /// A JSON object: a message for rmcp.
    Message,
    /// Blank: nothing.
    Blank,
    /// The error response to send (one line of JSON).
    Error(String),
}

/// A JSON-RPC error response with `id: null`.
fn error(code: i64, message: String) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string()
}

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

/// Judges one line (its `\n` taken off).
fn judge(line: &[u8]) -> Judged {
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
        Ok(serde_json::Value::Object(_)) => Judged::Message,
        Ok(serde_json::Value::Array(_)) => Judged::Error(error(
            INVALID_REQUEST,
            "Invalid Request: a batch (a JSON array) is not taken; send one message a line"
                .to_string(),
        )),
        Ok(_) => Judged::Error(error(
            INVALID_REQUEST,
            "Invalid Request: a message is a JSON object".to_string(),
        )),
    }
}

/// What reading one line found.
enum Read {
    /// A line (maybe the last, with no `\n`), in the buffer.
    Line,
    /// A line over the limit: read to its end and dropped.
    TooLong,
    Eof,
}

/// Reads the next line into `line` (without its `\n`), never holding more than `max` bytes of
/// it: past that, the rest of the line is read and dropped.
async fn next_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Read> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Read::TooLong,
                (false, true) => Read::Eof,
                (false, false) => Read::Line,
            });
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let part = &available[..newline.unwrap_or(available.len())];
        if !too_long && line.len() + part.len() > max {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(part);
        }
        let used = newline.map_or(available.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long { Read::TooLong } else { Read::Line });
        }
    }
}

/// Reads the client's lines from `input` until it closes: each message goes on to rmcp through
/// `to_rmcp`, each error response to `errors` (for [`write`]). Dropping `to_rmcp` at the end
/// tells rmcp the client is gone.
pub async fn read(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: impl AsyncWrite + Unpin,
    errors: UnboundedSender<String>,
) {
    read_limited(input, &mut to_rmcp, errors, MAX_REQUEST).await
}

async fn read_limited(
    input: impl AsyncRead + Unpin,
    to_rmcp: &mut (impl AsyncWrite + Unpin),
    errors: UnboundedSender<String>,
    max: usize,
) {
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut line = Vec::new();
    loop {
        let judged = match next_line(&mut input, &mut line, max).await {
            Ok(Read::Eof) | Err(_) => return,
            Ok(Read::TooLong) => Judged::Error(error(
                INVALID_REQUEST,
                format!(
                    "Invalid Request: the message is over {} MiB, the most this server reads",
                    max / (1024 * 1024)
                ),
            )),
            Ok(Read::Line) => judge(&line),
        };
        match judged {
            Judged::Blank => {}
            Judged::Error(response) => {
                let _ = errors.send(response);
            }
            Judged::Message => {
                line.push(b'\n');
                let sent = match to_rmcp.write_all(&line).await {
                    Ok(()) => to_rmcp.flush().await,
                    Err(e) => Err(e),
                };
                if sent.is_err() {
                    return; // rmcp has stopped reading
                }
            }
        }
    }
}

/// Writes rmcp's messages (lines from `from_rmcp`) and the error responses (from `errors`) to
/// `out`, a whole line at a time, until both have ended.
pub async fn write(
    from_rmcp: impl AsyncRead + Unpin,
    mut errors: UnboundedReceiver<String>,
    mut out: impl AsyncWrite + Unpin,
) {
    let mut lines = BufReader::new(from_rmcp).lines();
    let (mut rmcp_open, mut errors_open) = (true, true);
    while rmcp_open || errors_open {
        let line = tokio::select! {
            line = lines.next_line(), if rmcp_open => match line {
                Ok(Some(line)) => line,
                _ => {
                    rmcp_open = false;
                    continue;
                }
            },
            error = errors.recv(), if errors_open => match error {
                Some(error) => error,
                None => {
                    errors_open = false;
                    continue;
                }
            },
        };
        let written = async {
            out.write_all(line.as_bytes()).await?;
            out.write_all(b"\n").await?;
            out.flush().await
        };
        if written.await.is_err() {
            return; // the client is gone
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            judge(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Judged::Message
        );
        assert_eq!(judge(b"  \r"), Judged::Blank);
        assert_eq!(code(judge(b"not json {")), PARSE_ERROR);
        assert_eq!(code(judge(b"{\"a\":\"\xff\"}")), PARSE_ERROR);
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(code(judge(deep.as_bytes())), PARSE_ERROR);
        assert_eq!(
            code(judge(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#)),
            INVALID_REQUEST
        );
        assert_eq!(code(judge(b"42")), INVALID_REQUEST);
    }

    #[test]
    fn a_line_over_the_limit_is_an_error_and_the_next_line_goes_on() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let input = format!("{{\"a\":\"{}\"}}\n{{\"b\":1}}\n", "x".repeat(100));
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
            let mut forwarded = Vec::new();
            read_limited(input.as_bytes(), &mut forwarded, tx, 50).await;
            assert_eq!(forwarded, b"{\"b\":1}\n");
            let e = rx.recv().await.expect("an error");
            assert!(e.contains("-32600"), "{e}");
            assert!(rx.recv().await.is_none());
        });
    }
}
