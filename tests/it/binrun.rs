//! One finished run of the binary, shared by the index test files.

use serde_json::Value;

/// What a run of `context-graph` left: its exit code, stdout and stderr.
pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Out {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "no JSON on stdout ({e}), exit {}\nstdout:\n{}\nstderr:\n{}",
                self.code,
                self.text(),
                self.stderr
            )
        })
    }
}
