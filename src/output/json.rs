//! The JSON document: the reference's shape plus docs/reading.md, pretty-printed.

mod ser;

use crate::model::Report;
use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// Any serialisable answer as pretty JSON with a trailing newline.
pub fn render<T: Serialize>(value: &T) -> String {
    // Room for a long answer up front: growing a few hundred KiB by doubling copied it all
    // about ten times (the untouched rest of the reservation costs nothing).
    let mut out = Vec::with_capacity(1 << 20);
    let mut ser = ser::Serializer::with_formatter(&mut out, Pretty::default());
    value.serialize(&mut ser).expect("report serialises");
    ser.finish().expect("a Vec takes every write");
    out.push(b'\n');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes any serialisable answer to `w` as [`render`] makes it, a piece at a time: an answer
/// with 80,000 findings is never held whole (ADR-0011).
pub fn write<T: Serialize, W: Write>(value: &T, w: W) -> io::Result<()> {
    // The serializer writes a few bytes at a time (76,727 writes for a 394 KB answer) into a
    // buffer of its own, and that to `w` (which may be a `dyn Write`, every write a call) in
    // pieces of 64 KiB.
    let mut ser = ser::Serializer::with_formatter(w, Pretty::default());
    value.serialize(&mut ser).map_err(io::Error::from)?;
    let mut w = ser.finish().map_err(io::Error::from)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// The report as JSON.
pub fn report(report: &Report) -> String {
    render(report)
}

/// A new line and the indentation of up to [`DEEP`] levels, written at once.
const DEEP: usize = 32;
const NEWLINE_INDENT: [u8; 1 + 2 * DEEP] = {
    let mut b = [b' '; 1 + 2 * DEEP];
    b[0] = b'\n';
    b
};

/// `serde_json`'s `PrettyFormatter` (two spaces), byte for byte, writing each new line and
/// its indentation in one piece: the stock one writes the indentation two spaces at a time,
/// which was about a tenth of rendering a long answer.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        match NEWLINE_INDENT.get(..1 + 2 * self.depth) {
            Some(run) => w.write_all(run),
            None => {
                w.write_all(&NEWLINE_INDENT)?;
                (DEEP..self.depth).try_for_each(|_| w.write_all(b"  "))
            }
        }
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.newline(w)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "(.|[\\x00-\\x1f\"\\\\]){0,24}".prop_map(Value::String),
            any::<f64>().prop_map(Value::from),
        ];
        leaf.prop_recursive(40, 200, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(("(.|[\\x00-\\x1f\"]){0,10}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// Nested past the one-piece indentation, and empty containers at every depth.
    fn deep(levels: usize) -> Value {
        (0..levels).fold(Value::Array(vec![]), |inner, i| {
            serde_json::json!({ "level": i, "empty": {}, "none": [], "inner": [inner, "x"] })
        })
    }

    proptest! {
        #[test]
        fn renders_as_serde_json_pretty_does(v in value()) {
            let stock = serde_json::to_string_pretty(&v).expect("serialises") + "\n";
            prop_assert_eq!(render(&v), stock);
        }
    }

    /// An answer longer than the pieces it is written in, written whole and in order.
    #[test]
    fn a_long_answer_is_written_as_rendered() {
        let v: Value = (0..20_000)
            .map(|i| serde_json::json!({ "n": i, "s": format!("line {i}\n\"q\"") }))
            .collect();
        let stock = serde_json::to_string_pretty(&v).expect("serialises") + "\n";
        assert!(stock.len() > 4 << 16, "several pieces");
        assert_eq!(render(&v), stock);
        let mut written = Vec::new();
        write(&v, &mut written).expect("writes");
        assert_eq!(String::from_utf8(written).expect("UTF-8"), stock);
    }

    #[test]
    fn renders_deep_nesting_as_serde_json_pretty_does() {
        for levels in [0, 1, 15, 16, 17, 40] {
            let v = deep(levels);
            let stock = serde_json::to_string_pretty(&v).expect("serialises") + "\n";
            assert_eq!(render(&v), stock, "{levels} levels");
        }
    }
}
