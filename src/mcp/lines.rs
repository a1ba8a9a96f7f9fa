//! The lines between stdio and rmcp (ADR-0014): every line the client sends is judged
//! (`judge`) before rmcp reads it; a message goes on to rmcp, which answers it, and what
//! `judge` answers itself goes to the writer. A line over [`MAX_REQUEST`] is answered with an
//! invalid request (-32600, `id: null`) and never held in memory whole. The writer notes the
//! revision the server announces in its answer to `initialize` (batches depend on it), gathers
//! rmcp's answers to a batch into one array, and writes the server's messages and these answers
//! to stdout a whole line at a time.

use super::judge::{error, judge, Element, Judged, INVALID_REQUEST};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

/// The longest request read: a longer line is answered with an error and skipped.
pub const MAX_REQUEST: usize = 4 * 1024 * 1024;

/// The protocol revision the server announced in its answer to `initialize`, once it has: the
/// writer sees the answer go out, the reader asks it when a batch comes in.
#[derive(Clone, Default)]
pub struct Announced(Arc<Mutex<Option<String>>>);

impl Announced {
    fn get(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn set(&self, revision: String) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(revision);
    }
}

/// What the reader hands the writer.
#[derive(Debug, PartialEq)]
pub enum Out {
    /// An answer of its own (one line of JSON).
    Line(String),
    /// A batch gone on to rmcp: the ids of its requests, whose answers the writer gathers, and
    /// the answers already known (errors about its elements); written as one array when every
    /// request is answered.
    Batch {
        ids: Vec<Value>,
        answers: Vec<String>,
    },
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
/// `to_rmcp`, each answer of this layer's own to `answers` (for [`write`]). Dropping `to_rmcp`
/// at the end tells rmcp the client is gone.
pub async fn read(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: impl AsyncWrite + Unpin,
    answers: UnboundedSender<Out>,
    announced: Announced,
) {
    read_limited(input, &mut to_rmcp, answers, &announced, MAX_REQUEST).await
}

async fn read_limited(
    input: impl AsyncRead + Unpin,
    to_rmcp: &mut (impl AsyncWrite + Unpin),
    answers: UnboundedSender<Out>,
    announced: &Announced,
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
            Ok(Read::Line) => judge(&line, announced.get().as_deref()),
        };
        let forward = match judged {
            Judged::Blank => continue,
            Judged::Error(response) => {
                let _ = answers.send(Out::Line(response));
                continue;
            }
            Judged::Message => {
                line.push(b'\n');
                vec![std::mem::take(&mut line)]
            }
            Judged::Batch(elements) => {
                let (mut ids, mut known, mut forward) = (Vec::new(), Vec::new(), Vec::new());
                for element in elements {
                    match element {
                        Element::Message { line, request } => {
                            ids.extend(request);
                            forward.push(format!("{line}\n").into_bytes());
                        }
                        Element::Error(e) => known.push(e),
                        Element::Ignored => {}
                    }
                }
                // The writer hears of the batch before rmcp reads a message of it.
                if !ids.is_empty() || !known.is_empty() {
                    let _ = answers.send(Out::Batch {
                        ids,
                        answers: known,
                    });
                }
                forward
            }
        };
        for message in forward {
            let sent = match to_rmcp.write_all(&message).await {
                Ok(()) => to_rmcp.flush().await,
                Err(e) => Err(e),
            };
            if sent.is_err() {
                return; // rmcp has stopped reading
            }
        }
    }
}

/// A batch whose answers are being gathered.
struct Gathering {
    ids: Vec<Value>,
    answers: Vec<String>,
}

impl Gathering {
    /// The batch's answer: one line, a JSON array of the answers.
    fn line(&self) -> String {
        format!("[{}]", self.answers.join(","))
    }
}

/// The id of an answer rmcp wrote (a response: an `id` and no `method`).
fn answer_id(line: &str) -> Option<Value> {
    #[derive(Deserialize)]
    struct Response {
        id: Option<Value>,
        method: Option<IgnoredAny>,
    }
    let response: Response = serde_json::from_str(line).ok()?;
    response.method.is_none().then_some(response.id).flatten()
}

/// The revision an answer to `initialize` announces, if `line` is one.
fn announces(line: &str) -> Option<String> {
    if !line.contains("\"protocolVersion\"") {
        return None;
    }
    let message: Value = serde_json::from_str(line).ok()?;
    let result = message.get("result")?;
    result.get("serverInfo")?;
    Some(result.get("protocolVersion")?.as_str()?.to_string())
}

/// Writes rmcp's messages (lines from `from_rmcp`) and this layer's answers (from `answers`) to
/// `out`, a whole line at a time, until both have ended; notes the revision the server
/// announces in `announced`, and gathers the answers to each batch into one line.
pub async fn write(
    from_rmcp: impl AsyncRead + Unpin,
    mut answers: UnboundedReceiver<Out>,
    announced: Announced,
    mut out: impl AsyncWrite + Unpin,
) {
    let mut lines = BufReader::new(from_rmcp).lines();
    let (mut rmcp_open, mut answers_open) = (true, true);
    let mut batches: Vec<Gathering> = Vec::new();
    while rmcp_open || answers_open {
        // This layer's answers first: a batch is heard of before any answer to it.
        let line = tokio::select! {
            biased;
            answer = answers.recv(), if answers_open => match answer {
                Some(Out::Line(line)) => line,
                Some(Out::Batch { ids, answers }) => {
                    let batch = Gathering { ids, answers };
                    if !batch.ids.is_empty() {
                        batches.push(batch);
                        continue;
                    }
                    batch.line()
                }
                None => {
                    answers_open = false;
                    continue;
                }
            },
            line = lines.next_line(), if rmcp_open => match line {
                Ok(Some(line)) => {
                    if announced.get().is_none() {
                        if let Some(revision) = announces(&line) {
                            announced.set(revision);
                        }
                    }
                    match gathered(&mut batches, line) {
                        Some(line) => line,
                        None => continue,
                    }
                }
                _ => {
                    rmcp_open = false;
                    // rmcp is gone: what each batch has is all it will have.
                    let left: Vec<String> = batches
                        .drain(..)
                        .filter(|b| !b.answers.is_empty())
                        .map(|b| b.line())
                        .collect();
                    if left.is_empty() {
                        continue;
                    }
                    left.join("\n")
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

/// `line` from rmcp: taken into the batch waiting for its answer (then the batch's line when
/// that was the last one it waited for, else nothing), or itself.
fn gathered(batches: &mut Vec<Gathering>, line: String) -> Option<String> {
    if batches.is_empty() {
        return Some(line);
    }
    let Some(id) = answer_id(&line) else {
        return Some(line);
    };
    let Some(at) = batches.iter().position(|b| b.ids.contains(&id)) else {
        return Some(line);
    };
    let batch = &mut batches[at];
    batch.ids.retain(|waiting| *waiting != id);
    batch.answers.push(line);
    if !batch.ids.is_empty() {
        return None;
    }
    Some(batches.remove(at).line())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_line_over_the_limit_is_an_error_and_the_next_line_goes_on() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
            let input = format!("{{\"a\":\"{}\"}}\n{ping}\n", "x".repeat(100));
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
            let mut forwarded = Vec::new();
            read_limited(
                input.as_bytes(),
                &mut forwarded,
                tx,
                &Announced::default(),
                50,
            )
            .await;
            assert_eq!(forwarded, format!("{ping}\n").into_bytes());
            let Some(Out::Line(e)) = rx.recv().await else {
                panic!("an error")
            };
            assert!(e.contains("-32600"), "{e}");
            assert!(rx.recv().await.is_none());
        });
    }
    fn parsed(line: &str) -> Value {
        serde_json::from_str(line).expect("JSON")
    }

    #[test]
    fn the_answers_to_a_batch_go_out_as_one_array_and_others_as_they_come() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        runtime.block_on(async {
            let from_rmcp = concat!(
                r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","serverInfo":{}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":9,"result":{}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
                "\n",
            );
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            let known = error(INVALID_REQUEST, "Invalid Request".into());
            tx.send(Out::Batch {
                ids: vec![json!(1), json!(2)],
                answers: vec![known],
            })
            .unwrap();
            drop(tx);
            let announced = Announced::default();
            let mut out = Vec::new();
            write(from_rmcp.as_bytes(), rx, announced.clone(), &mut out).await;
            let out = String::from_utf8(out).unwrap();
            let lines: Vec<Value> = out.lines().map(parsed).collect();
            assert_eq!(lines.len(), 3, "{out}");
            assert_eq!(lines[0]["id"], 0);
            assert_eq!(lines[1]["id"], 9);
            let ids: Vec<Value> = lines[2]
                .as_array()
                .expect("the batch's answer, an array")
                .iter()
                .map(|a| a["id"].clone())
                .collect();
            assert_eq!(ids, [Value::Null, json!(2), json!(1)]);
            assert_eq!(announced.get().as_deref(), Some("2025-03-26"));
        });
    }
}
