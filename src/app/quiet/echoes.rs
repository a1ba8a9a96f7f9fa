//! The records' words a change is compared with (`skip_unechoed`, docs/hooks.md): the commit
//! hook's table's, else the record files'.

use crate::fs::discover;
use crate::fs::read::read_in_root;
use crate::hooks::quiet::Echoed;
use std::path::Path;

/// The records' words as `why`'s `text` evidence has them (`related::vocabulary`), made when
/// a change is first compared with a record: read from the commit hook's table when it has one
/// ([`Echoes::use_table`]), else from the record files the record folders hold in the work
/// tree (found as a scan finds them).
pub struct Echoes {
    root: std::path::PathBuf,
    docs: Vec<String>,
    /// The commit hook's table (ADR-0018), whose words are decoded only when asked.
    table: Option<Vec<u8>>,
    /// The vocabulary's bytes, and the record files in its order.
    made: std::cell::OnceCell<(Vec<u8>, Vec<String>)>,
}

impl Echoes {
    pub fn new(root: &Path, docs: &[String]) -> Echoes {
        Echoes {
            root: root.to_path_buf(),
            docs: docs.to_vec(),
            table: None,
            made: std::cell::OnceCell::new(),
        }
    }

    /// The words the commit hook's table keeps (its bytes, as `index::governing::load` found
    /// them holding), read from it rather than from the record files.
    pub fn use_table(&mut self, table: Vec<u8>) {
        self.table = Some(table);
    }

    /// The vocabulary and the record files in its order: the table's, else the work tree's.
    fn make(&self) -> (Vec<u8>, Vec<String>) {
        if let Some(words) = self
            .table
            .as_deref()
            .and_then(crate::index::governing::echoes)
        {
            return words;
        }
        let folders = discover::record_folders(&self.root, &self.docs).unwrap_or_default();
        let (found, _) = discover::record_files(&self.root, &folders);
        let words: Vec<Vec<(String, u32)>> = found
            .iter()
            .map(|f| {
                let bytes = read_in_root(&self.root, &f.rel).unwrap_or_default();
                crate::parse::words_of(&f.rel, &String::from_utf8_lossy(&bytes))
            })
            .collect();
        let refs: Vec<&[(String, u32)]> = words.iter().map(Vec::as_slice).collect();
        let files = found.into_iter().map(|f| f.rel).collect();
        (crate::related::vocabulary(&refs), files)
    }

    /// The cosines between `text` (`hooks::echo::changed_text`) and the words of the record
    /// whose file is `record`, and of the record `text` shares most with, whose file comes
    /// second; `None` when not compared (a binary change, fewer than five records, a record
    /// not found).
    pub fn echoed(&self, record: &str, text: &[u8]) -> Option<(Echoed, String)> {
        let (bytes, files) = self.made.get_or_init(|| self.make());
        let vocabulary = crate::related::Vocabulary::read(bytes, files.len())?;
        let echo = crate::related::echo(&vocabulary, "", text)?;
        let mine = files.iter().position(|f| f == record)?;
        let record = *echo.cosines.get(mine)?;
        let (mut best, mut like) = (record, mine);
        for (i, c) in echo.cosines.iter().enumerate() {
            if *c > best {
                (best, like) = (*c, i);
            }
        }
        Some((Echoed { record, best }, files.get(like)?.clone()))
    }

    /// Whether the record whose file is `record` writes one of `names`
    /// (`hooks::settings::writes_any`), its text read from the work tree; a record not read
    /// writes them all, so nothing is kept quiet for want of it.
    pub fn writes_any(&self, record: &str, names: &[String]) -> bool {
        match read_in_root(&self.root, record) {
            Ok(bytes) => {
                crate::hooks::settings::writes_any(&String::from_utf8_lossy(&bytes), names)
            }
            Err(_) => true,
        }
    }
}
