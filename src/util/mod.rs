//! Small helpers every layer may use: work spread over the cores, a lock that survives a
//! panic elsewhere, the wall clock, one-line messages. Nothing here knows about records, git
//! or the index (ADR-0007).

pub mod faults;

use std::sync::{Mutex, MutexGuard, OnceLock};

/// Maps `items` on up to as many threads as the machine has cores, keeping their order; on
/// this thread when there are fewer than 64 (a thread costs more than it saves).
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    parallel_map_from(64, items, f)
}

/// [`parallel_map`], on threads only from `min` items on: light work (a stat each) pays for a
/// thread only in the thousands.
pub fn parallel_map_from<T: Sync, R: Send>(
    min: usize,
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    static THREADS: OnceLock<usize> = OnceLock::new();
    // Few items never ask the system for its cores (which reads cgroup files).
    if items.len() < min.max(2) {
        return items.iter().map(&f).collect();
    }
    let threads = *THREADS.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
            .min(8)
    });
    if threads < 2 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| s.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    })
}

/// A lock on a cache of plain facts: a panic elsewhere cannot leave it half-written, so a
/// poisoned lock is taken anyway.
pub fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Replaces the cache file `path` with `bytes`: written to `tmp` (in the same folder), the old
/// file removed, then `tmp` renamed to `path`, so a reader finds the old file whole, the new one
/// whole, or (for a moment) none, which a cache reader takes as nothing kept. Not renamed over
/// the old file: ext4 then flushes the new one to disk first (`auto_da_alloc`), which took
/// 0.31 ms against 0.09 ms for a 90 KB file on the VM, twice in an answer after a new commit.
/// Not synced: a lost write is a cache miss. On failure `tmp` is removed.
pub fn replace_file(
    path: &std::path::Path,
    tmp: &std::path::Path,
    bytes: &[u8],
) -> std::io::Result<()> {
    let done = faults::check("file")
        .and_then(|_| std::fs::write(tmp, bytes))
        .and_then(|_| {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
            std::fs::rename(tmp, path)
        });
    if done.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    done
}

/// The wall clock in ns since the epoch, as file times are compared with it.
pub fn now_ns() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

/// A message on one line: runs of white space (newlines included) become one space.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `path` less `prefix` when it begins with it, as `strip_prefix`, but with nothing compared
/// when `prefix` is empty (the root at the top of its work tree: most of the time). Comparing
/// no bytes still calls `memcmp`, which glibc answers in 40 to 100 ns for an empty slice's
/// pointer: half a millisecond over git's index of 5,000 paths (docs/benchmarks.md).
pub fn under_prefix<'a>(path: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    if prefix.is_empty() {
        return Some(path);
    }
    path.strip_prefix(prefix)
}

/// [`under_prefix`] of text.
pub fn under_prefix_str<'a>(path: &'a str, prefix: &str) -> Option<&'a str> {
    if prefix.is_empty() {
        return Some(path);
    }
    path.strip_prefix(prefix)
}
