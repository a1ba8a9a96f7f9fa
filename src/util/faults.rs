//! Injected write failures, for the tests of a full disk (ADR-0011): compiled into debug builds
//! only (the tests' builds); a release build has no failpoint and reads no variable.
//!
//! `CONTEXT_GRAPH_FAILPOINTS=site=N[,site=N…]` makes the N-th write at `site` (counted from 1
//! in this process) and every later one fail as a full disk does. The sites: `redb` (every write,
//! length change and sync of the index file), `file` (every cache file written beside it: the
//! pending commits, git's index markers, the seal), `rename` (the rebuilt index put in place) and
//! `sync` (the index file and its folder synced before the seal is written).

/// The environment variable naming the failpoints.
pub const VAR: &str = "CONTEXT_GRAPH_FAILPOINTS";

/// Fails when the failpoint `site` says this write fails.
#[cfg(debug_assertions)]
pub fn check(site: &str) -> std::io::Result<()> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static POINTS: OnceLock<Option<HashMap<String, usize>>> = OnceLock::new();
    static HITS: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);
    let points = POINTS.get_or_init(|| {
        let spec = std::env::var(VAR).ok()?;
        Some(
            spec.split(',')
                .filter_map(|p| {
                    let (name, n) = p.split_once('=')?;
                    Some((name.trim().to_string(), n.trim().parse().ok()?))
                })
                .collect(),
        )
    });
    let Some(from) = points.as_ref().and_then(|p| p.get(site)) else {
        return Ok(());
    };
    let mut hits = super::locked(&HITS);
    let hit = hits
        .get_or_insert_with(HashMap::new)
        .entry(site.to_string())
        .or_default();
    *hit += 1;
    if *hit >= *from {
        return Err(std::io::Error::new(
            std::io::ErrorKind::StorageFull,
            format!("no space left on device (injected at `{site}`)"),
        ));
    }
    Ok(())
}

/// Never fails: failpoints exist in debug builds only.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub fn check(_site: &str) -> std::io::Result<()> {
    Ok(())
}
