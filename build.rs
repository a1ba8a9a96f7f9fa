//! Links the binary as a fixed-address (non-PIE) executable: a PIE of this size has about
//! 16,000 relocations applied at every start (310 KB of `.data.rel.ro` copied and written),
//! and every hook and query is a new process (issue 17, ADR-0018). Only the binaries get the
//! flag: proc-macro crates must stay shared objects.
//!
//! Also a digest of the sources (`CG_BUILD_SOURCE_DIGEST`): the index keeps the records'
//! parses and resolved mentions only for the build that made them (ADR-0006 as amended
//! 2026-12-05), so a build that reads a record differently never serves another's answer,
//! whether or not its author remembered to raise `PARSER_VERSION`.
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    all.sort();
    // FNV-1a over each file's path and bytes.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in &all {
        let bytes = std::fs::read(path).unwrap_or_default();
        for b in path
            .to_string_lossy()
            .as_bytes()
            .iter()
            .chain(&[0])
            .chain(&bytes)
        {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=CG_BUILD_SOURCE_DIGEST={}", hash as u32);
}
