//! The only code that touches the work tree: the root, record discovery, confined reads, the
//! guide walk, what named paths are, fingerprints, source files read for their markers
//! (ADR-0001, ADR-0007), and safe writes: a file written beside and renamed (ADR-0013).

pub mod atomic;
pub mod config;
pub mod confine;
pub mod discover;
pub mod fingerprint;
pub mod ignored;
pub mod read;
pub mod root;
pub mod sources;
pub mod tools;
pub mod tracked;
pub mod tree;
pub mod walk;
pub mod walk_rules;

pub use discover::Found;

/// Why the root or a record folder cannot be read. One line, naming the argument.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    #[error("cannot read --root {path}: {source}")]
    Root {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("--root {0} is not a folder")]
    RootNotDir(std::path::PathBuf),
    #[error("cannot read --docs {path}: {reason}")]
    Docs { path: String, reason: String },
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error("cannot read the folder {path} that {file} names: {reason}")]
    ConfigFolder {
        path: String,
        file: &'static str,
        reason: String,
    },
}
