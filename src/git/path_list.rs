//! Paths in path order kept in one text, not a string each: the commit hook lists every file
//! git's index tracks for its folder rules, and a string each (made, checked as UTF-8, freed)
//! was a fifth of its work (issue 41).

/// Root-relative paths in path order, in one text.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PathList {
    text: String,
    /// Where each path ends in `text`; each starts where the one before ends.
    ends: Vec<usize>,
}

impl PathList {
    /// Appends `path`, which sorts at or after the last one.
    pub fn push(&mut self, path: &str) {
        self.text.push_str(path);
        self.ends.push(self.text.len());
    }

    /// The paths whose bytes `bytes` holds end to end, each ending at its `ends`: those that
    /// are UTF-8, checked at once (a path that is not is left out, as a string each would).
    pub(crate) fn from_bytes(bytes: Vec<u8>, ends: Vec<usize>) -> PathList {
        match String::from_utf8(bytes) {
            // Two paths that are not UTF-8 may make UTF-8 together: each end must fall
            // between characters too.
            Ok(text) if ends.iter().all(|&e| text.is_char_boundary(e)) => PathList { text, ends },
            Ok(text) => PathList::each_checked(text.as_bytes(), &ends),
            Err(e) => PathList::each_checked(e.as_bytes(), &ends),
        }
    }

    fn each_checked(bytes: &[u8], ends: &[usize]) -> PathList {
        let mut out = PathList::default();
        let mut start = 0;
        for &end in ends {
            if let Ok(path) = std::str::from_utf8(&bytes[start..end]) {
                out.push(path);
            }
            start = end;
        }
        out
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th path.
    pub fn get(&self, i: usize) -> &str {
        let start = match i {
            0 => 0,
            i => self.ends[i - 1],
        };
        &self.text[start..self.ends[i]]
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Where the first path at or after `prefix` is.
    fn first_at(&self, prefix: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid) < prefix {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The paths from the first at or after `prefix` while they start with it.
    pub fn starting<P: AsRef<str>>(&self, prefix: P) -> impl Iterator<Item = &str> {
        (self.first_at(prefix.as_ref())..self.len())
            .map(|i| self.get(i))
            .take_while(move |f| f.starts_with(prefix.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(paths: &[&[u8]]) -> PathList {
        let (mut bytes, mut ends) = (Vec::new(), Vec::new());
        for p in paths {
            bytes.extend_from_slice(p);
            ends.push(bytes.len());
        }
        PathList::from_bytes(bytes, ends)
    }

    #[test]
    fn paths_read_back_and_a_prefix_finds_its_run() {
        let l = list(&[b"a.md", b"src/a.rs", b"src/b/c.rs", b"srcs/x", b"z"]);
        assert_eq!(
            l.iter().collect::<Vec<_>>(),
            ["a.md", "src/a.rs", "src/b/c.rs", "srcs/x", "z"]
        );
        assert_eq!(
            l.starting("src/").collect::<Vec<_>>(),
            ["src/a.rs", "src/b/c.rs"]
        );
        assert_eq!(l.starting("").count(), 5);
        assert_eq!(l.starting("q/").count(), 0);
        assert_eq!(l.starting("zz").count(), 0);
    }

    #[test]
    fn a_path_that_is_not_utf8_is_left_out_even_when_two_make_one_character() {
        // "é" is C3 A9: one path ending in C3, the next starting with A9.
        let l = list(&[b"a", b"b\xc3", b"\xa9c", b"d", b"e\xff"]);
        assert_eq!(l.iter().collect::<Vec<_>>(), ["a", "d"]);
        let ok = list(&["caf\u{e9}".as_bytes(), b"x"]);
        assert_eq!(ok.iter().collect::<Vec<_>>(), ["caf\u{e9}", "x"]);
    }
}
