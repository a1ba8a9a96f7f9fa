//! The floor of a warm answer that checks its inputs by their stats (issue 41): start a
//! process, read the list of root-relative paths the answer stats (one per line), and stat
//! each from the root, as the answer does. `bench/corpora-warm.sh` builds it with `rustc -O`
//! and times it beside `git rev-parse HEAD`: no answer that stats those paths costs less.
//!
//!     stat-floor ROOT LIST

fn main() {
    let mut args = std::env::args_os().skip(1);
    let (Some(root), Some(list)) = (args.next(), args.next()) else {
        eprintln!("usage: stat-floor ROOT LIST");
        std::process::exit(2);
    };
    let paths = match std::fs::read_to_string(&list) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("stat-floor: {}: {e}", list.to_string_lossy());
            std::process::exit(2);
        }
    };
    if let Err(e) = std::env::set_current_dir(&root) {
        eprintln!("stat-floor: {}: {e}", root.to_string_lossy());
        std::process::exit(2);
    }
    let found = paths
        .lines()
        .filter(|p| std::fs::metadata(p).is_ok())
        .count();
    // Used, so the stats are not optimised away.
    std::process::exit(i32::from(found == usize::MAX));
}
