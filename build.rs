//! Links the binary as a fixed-address (non-PIE) executable: a PIE of this size has about
//! 16,000 relocations applied at every start (310 KB of `.data.rel.ro` copied and written),
//! and every hook and query is a new process (issue 17, ADR-0018). Only the binaries get the
//! flag: proc-macro crates must stay shared objects.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
