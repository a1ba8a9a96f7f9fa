//! The commit graph as numbers, stored in chunks, and what a set of tips reaches (ADR-0006).

use super::codec;
use super::schema::Checked;
use redb::ReadableTable;

/// Commits per stored chunk of the graph: appending a commit rewrites one chunk.
pub(crate) const GRAPH_CHUNK: u32 = 4096;

/// The commit graph as numbers, from commit `base` on: each commit's parents (flat, with
/// offsets), and whether it is still kept. A dropped commit keeps its slot; nothing kept
/// reaches it. Stored in chunks of [`GRAPH_CHUNK`] commits (`base` is then the chunk's first).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Graph {
    #[serde(skip)]
    pub(crate) base: u32,
    offsets: Vec<u32>,
    parents: Vec<u32>,
    alive: Vec<bool>,
}

impl Graph {
    /// One past the last commit number it holds.
    pub(crate) fn end(&self) -> u32 {
        self.base + self.alive.len() as u32
    }

    pub(crate) fn push(&mut self, parents: &[u32]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.parents.extend_from_slice(parents);
        self.offsets.push(self.parents.len() as u32);
        self.alive.push(true);
    }

    pub(crate) fn parents_of(&self, n: u32) -> &[u32] {
        let Some(i) = n.checked_sub(self.base).map(|i| i as usize) else {
            return &[];
        };
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.parents[a as usize..b as usize],
            _ => &[],
        }
    }

    pub(crate) fn is_alive(&self, n: u32) -> bool {
        n.checked_sub(self.base)
            .and_then(|i| self.alive.get(i as usize).copied())
            .unwrap_or(false)
    }

    pub(crate) fn kill(&mut self, n: u32) {
        if let Some(slot) = n
            .checked_sub(self.base)
            .and_then(|i| self.alive.get_mut(i as usize))
        {
            *slot = false;
        }
    }

    /// The commits from `from` to `to` (exclusive) as a graph of their own.
    fn slice(&self, from: u32, to: u32) -> Graph {
        let mut g = Graph {
            base: from,
            ..Graph::default()
        };
        for n in from..to {
            g.push(self.parents_of(n));
            if !self.is_alive(n) {
                g.kill(n);
            }
        }
        g
    }

    /// Appends `other`, which starts where this one ends.
    fn extend(&mut self, other: &Graph) {
        for n in other.base..other.end() {
            self.push(other.parents_of(n));
            if !other.is_alive(n) {
                let last = self.end() - 1;
                self.kill(last);
            }
        }
    }

    /// Everything `tips` reach (the graph must start at commit 0).
    pub(super) fn reach(&self, tips: impl Iterator<Item = u32>) -> Reach {
        let mut reach = Reach::with_len(self.end() as usize);
        let mut stack: Vec<u32> = tips.collect();
        while let Some(n) = stack.pop() {
            if n < self.end() && !reach.contains(n) {
                reach.insert(n);
                stack.extend_from_slice(self.parents_of(n));
            }
        }
        reach
    }
}

/// The graph from chunk `from` on.
pub(crate) fn load_graph(
    table: &impl ReadableTable<u32, Checked>,
    from: u32,
) -> Result<Graph, redb::Error> {
    let mut graph = Graph {
        base: from * GRAPH_CHUNK,
        ..Graph::default()
    };
    for entry in table.range(from..)? {
        let (chunk, bytes) = entry?;
        let mut part: Graph =
            codec::decode(bytes.value()).map_err(|e| redb::Error::Corrupted(e.to_string()))?;
        part.base = chunk.value() * GRAPH_CHUNK;
        if part.base != graph.end() {
            return Err(redb::Error::Corrupted(format!(
                "graph chunk {} does not follow commit {}",
                chunk.value(),
                graph.end()
            )));
        }
        graph.extend(&part);
    }
    Ok(graph)
}

/// Writes the chunks of `graph` that hold commit `from` and later ones.
pub(crate) fn store_graph(
    table: &mut redb::Table<u32, Checked>,
    graph: &Graph,
    from: u32,
) -> Result<(), redb::Error> {
    let first_chunk = from.max(graph.base) / GRAPH_CHUNK;
    let last_chunk = graph.end().saturating_sub(1) / GRAPH_CHUNK;
    if graph.end() == graph.base {
        return Ok(());
    }
    for chunk in first_chunk..=last_chunk {
        let from = (chunk * GRAPH_CHUNK).max(graph.base);
        let to = ((chunk + 1) * GRAPH_CHUNK).min(graph.end());
        let part = graph.slice(from, to);
        table.insert(chunk, codec::encode(&part).as_slice())?;
    }
    Ok(())
}

/// A set of commit numbers as a bitmap.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(super) struct Reach {
    bits: Vec<u64>,
}

impl Reach {
    pub(super) fn with_len(n: usize) -> Reach {
        Reach {
            bits: vec![0; n.div_ceil(64)],
        }
    }
    pub(super) fn contains(&self, n: u32) -> bool {
        self.bits
            .get(n as usize / 64)
            .is_some_and(|w| w & (1 << (n % 64)) != 0)
    }
    pub(super) fn insert(&mut self, n: u32) {
        let i = n as usize / 64;
        if i >= self.bits.len() {
            self.bits.resize(i + 1, 0);
        }
        self.bits[i] |= 1 << (n % 64);
    }
    pub(super) fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::schema::GRAPH;
    use redb::Database;

    fn sample(n: u32) -> Graph {
        let mut g = Graph::default();
        for i in 0..n {
            let parents: Vec<u32> = match i {
                0 => vec![],
                _ if i % 97 == 0 => vec![i - 1, i / 2],
                _ => vec![i - 1],
            };
            g.push(&parents);
        }
        g.kill(5);
        g
    }

    fn same(a: &Graph, b: &Graph) {
        assert_eq!(a.end(), b.end());
        for n in 0..a.end() {
            assert_eq!(a.parents_of(n), b.parents_of(n), "commit {n}");
            assert_eq!(a.is_alive(n), b.is_alive(n), "commit {n}");
        }
    }

    #[test]
    fn the_graph_round_trips_through_chunks_and_appends_to_its_tail() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path().join("g.redb")).unwrap();
        let whole = sample(2 * GRAPH_CHUNK + 10);
        let txn = db.begin_write().unwrap();
        {
            let mut t = txn.open_table(GRAPH).unwrap();
            store_graph(&mut t, &whole, 0).unwrap();
            same(&load_graph(&t, 0).unwrap(), &whole);
            // Append to the tail only, as a refresh does.
            let mut tail = load_graph(&t, 2).unwrap();
            assert_eq!(tail.base, 2 * GRAPH_CHUNK);
            let first = tail.end();
            for i in 0..GRAPH_CHUNK {
                tail.push(&[first + i - 1]);
            }
            store_graph(&mut t, &tail, first).unwrap();
            let mut expected = whole.clone();
            for i in 0..GRAPH_CHUNK {
                expected.push(&[first + i - 1]);
            }
            let loaded = load_graph(&t, 0).unwrap();
            same(&loaded, &expected);
            assert!(loaded.reach([loaded.end() - 1].into_iter()).contains(0));
            assert!(!loaded.reach([4].into_iter()).contains(6));
        }
        txn.commit().unwrap();
    }
}
