//! A JSON serializer that writes what `serde_json::Serializer` writes with the same formatter,
//! byte for byte, but escapes strings a word at a time: serde_json looks each byte of a
//! string up in its table, which was more than half of rendering an answer with a thousand
//! commits (issue 17). Structure and numbers are the formatter's, as in serde_json; strings
//! are `escape`'s: found clean eight bytes at a time (`"`, `\` and the C0 controls are
//! escaped), and a short one written with its quotes in one piece.

use serde::ser::{self, Serialize};
use serde_json::ser::Formatter;
use serde_json::Error;
use std::io::Write;

mod escape;

use escape::write_str;

macro_rules! io {
    ($e:expr) => {
        $e.map_err(Error::io)
    };
}

/// Writes values to `out` through `formatter`, as `serde_json::Serializer` does, in pieces
/// of about [`SPILL`] bytes: everything is first written into a buffer of its own, where
/// each of the many small writes is a copy (into a `BufWriter` each was a call).
pub struct Serializer<W, F> {
    out: W,
    buf: Vec<u8>,
    formatter: F,
}

/// How much is written at a time.
const SPILL: usize = 1 << 16;

impl<W: Write, F: Formatter> Serializer<W, F> {
    pub fn with_formatter(out: W, formatter: F) -> Self {
        Serializer {
            out,
            buf: Vec::with_capacity(SPILL + 4096),
            formatter,
        }
    }

    /// Writes what is buffered once there is a piece's worth.
    fn spill(&mut self) -> Result<(), Error> {
        if self.buf.len() >= SPILL {
            io!(self.out.write_all(&self.buf))?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes the rest, and gives the writer back (not flushed).
    pub fn finish(mut self) -> Result<W, Error> {
        io!(self.out.write_all(&self.buf))?;
        Ok(self.out)
    }
}

/// Where a sequence or map is: nothing written in it yet, or something.
#[derive(PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

pub struct Compound<'a, W, F> {
    ser: &'a mut Serializer<W, F>,
    state: State,
}

impl<'a, W: Write, F: Formatter> ser::Serializer for &'a mut Serializer<W, F> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W, F>;
    type SerializeTuple = Compound<'a, W, F>;
    type SerializeTupleStruct = Compound<'a, W, F>;
    type SerializeTupleVariant = Compound<'a, W, F>;
    type SerializeMap = Compound<'a, W, F>;
    type SerializeStruct = Compound<'a, W, F>;
    type SerializeStructVariant = Compound<'a, W, F>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        io!(self.formatter.write_bool(&mut self.buf, v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        io!(self.formatter.write_i8(&mut self.buf, v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        io!(self.formatter.write_i16(&mut self.buf, v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        io!(self.formatter.write_i32(&mut self.buf, v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        io!(self.formatter.write_i64(&mut self.buf, v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        io!(self.formatter.write_i128(&mut self.buf, v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        io!(self.formatter.write_u8(&mut self.buf, v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        io!(self.formatter.write_u16(&mut self.buf, v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        io!(self.formatter.write_u32(&mut self.buf, v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        io!(self.formatter.write_u64(&mut self.buf, v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        io!(self.formatter.write_u128(&mut self.buf, v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        match v.is_finite() {
            true => io!(self.formatter.write_f32(&mut self.buf, v)),
            false => io!(self.formatter.write_null(&mut self.buf)),
        }
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        match v.is_finite() {
            true => io!(self.formatter.write_f64(&mut self.buf, v)),
            false => io!(self.formatter.write_null(&mut self.buf)),
        }
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(&mut self.buf, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        io!(self.formatter.write_byte_array(&mut self.buf, v))
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        io!(self.formatter.write_null(&mut self.buf))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let (w, f) = (&mut self.buf, &mut self.formatter);
        io!(f.begin_object(w))?;
        io!(f.begin_object_key(w, true))?;
        write_str(w, variant);
        io!(f.end_object_key(w))?;
        io!(f.begin_object_value(w))?;
        value.serialize(&mut *self)?;
        let (w, f) = (&mut self.buf, &mut self.formatter);
        io!(f.end_object_value(w))?;
        io!(f.end_object(w))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W, F>, Error> {
        io!(self.formatter.begin_array(&mut self.buf))?;
        let state = if len == Some(0) {
            io!(self.formatter.end_array(&mut self.buf))?;
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W, F>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W, F>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W, F>, Error> {
        self.variant_key(variant)?;
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W, F>, Error> {
        io!(self.formatter.begin_object(&mut self.buf))?;
        let state = if len == Some(0) {
            io!(self.formatter.end_object(&mut self.buf))?;
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W, F>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, W, F>, Error> {
        self.variant_key(variant)?;
        self.serialize_map(Some(len))
    }
}

impl<W: Write, F: Formatter> Serializer<W, F> {
    /// `{"variant": ` before a tuple or struct variant's content.
    fn variant_key(&mut self, variant: &str) -> Result<(), Error> {
        let (w, f) = (&mut self.buf, &mut self.formatter);
        io!(f.begin_object(w))?;
        io!(f.begin_object_key(w, true))?;
        write_str(w, variant);
        io!(f.end_object_key(w))?;
        io!(f.begin_object_value(w))
    }

    /// `}` after a tuple or struct variant's content.
    fn variant_end(&mut self) -> Result<(), Error> {
        io!(self.formatter.end_object_value(&mut self.buf))?;
        io!(self.formatter.end_object(&mut self.buf))
    }
}

impl<W: Write, F: Formatter> Compound<'_, W, F> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        let first = self.state == State::First;
        io!(self
            .ser
            .formatter
            .begin_array_value(&mut self.ser.buf, first))?;
        self.state = State::Rest;
        value.serialize(&mut *self.ser)?;
        io!(self.ser.formatter.end_array_value(&mut self.ser.buf))?;
        self.ser.spill()
    }

    fn end_array(self) -> Result<(), Error> {
        match self.state {
            State::Empty => Ok(()),
            _ => io!(self.ser.formatter.end_array(&mut self.ser.buf)),
        }
    }

    fn key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        let first = self.state == State::First;
        io!(self
            .ser
            .formatter
            .begin_object_key(&mut self.ser.buf, first))?;
        self.state = State::Rest;
        key.serialize(MapKey {
            ser: &mut *self.ser,
        })?;
        io!(self.ser.formatter.end_object_key(&mut self.ser.buf))
    }

    fn value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        io!(self.ser.formatter.begin_object_value(&mut self.ser.buf))?;
        value.serialize(&mut *self.ser)?;
        io!(self.ser.formatter.end_object_value(&mut self.ser.buf))?;
        self.ser.spill()
    }

    fn field(&mut self, key: &'static str, value: &(impl ?Sized + Serialize)) -> Result<(), Error> {
        let first = self.state == State::First;
        io!(self
            .ser
            .formatter
            .begin_object_key(&mut self.ser.buf, first))?;
        self.state = State::Rest;
        write_str(&mut self.ser.buf, key);
        io!(self.ser.formatter.end_object_key(&mut self.ser.buf))?;
        self.value(value)
    }

    fn end_object(self) -> Result<(), Error> {
        match self.state {
            State::Empty => Ok(()),
            _ => io!(self.ser.formatter.end_object(&mut self.ser.buf)),
        }
    }
}

/// serde's three array-shaped traits, each an element at a time and `]` at the end.
macro_rules! array_compound {
    ($($trait:ident :: $method:ident),*) => {$(
        impl<W: Write, F: Formatter> ser::$trait for Compound<'_, W, F> {
            type Ok = ();
            type Error = Error;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                self.end_array()
            }
        }
    )*};
}

array_compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl<W: Write, F: Formatter> ser::SerializeTupleVariant for Compound<'_, W, F> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        match self.state {
            State::Empty => {}
            _ => io!(self.ser.formatter.end_array(&mut self.ser.buf))?,
        }
        self.ser.variant_end()
    }
}

impl<W: Write, F: Formatter> ser::SerializeMap for Compound<'_, W, F> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.value(value)
    }
    fn end(self) -> Result<(), Error> {
        self.end_object()
    }
}

impl<W: Write, F: Formatter> ser::SerializeStruct for Compound<'_, W, F> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.end_object()
    }
}

impl<W: Write, F: Formatter> ser::SerializeStructVariant for Compound<'_, W, F> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        match self.state {
            State::Empty => {}
            _ => io!(self.ser.formatter.end_object(&mut self.ser.buf))?,
        }
        self.ser.variant_end()
    }
}

/// A map's key: a string, or a number, a bool or a char written as one, as serde_json takes
/// them; anything else is its error.
struct MapKey<'a, W, F> {
    ser: &'a mut Serializer<W, F>,
}

fn key_must_be_a_string() -> Error {
    ser::Error::custom("key must be a string")
}

macro_rules! quoted {
    ($($name:ident $t:ty => $write:ident),* $(,)?) => {
        $(fn $name(self, v: $t) -> Result<(), Error> {
            let (w, f) = (&mut self.ser.buf, &mut self.ser.formatter);
            io!(f.begin_string(w))?;
            io!(f.$write(w, v))?;
            io!(f.end_string(w))
        })*
    };
}

impl<W: Write, F: Formatter> ser::Serializer for MapKey<'_, W, F> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    quoted! {
        serialize_bool bool => write_bool,
        serialize_i8 i8 => write_i8,
        serialize_i16 i16 => write_i16,
        serialize_i32 i32 => write_i32,
        serialize_i64 i64 => write_i64,
        serialize_i128 i128 => write_i128,
        serialize_u8 u8 => write_u8,
        serialize_u16 u16 => write_u16,
        serialize_u32 u32 => write_u32,
        serialize_u64 u64 => write_u64,
        serialize_u128 u128 => write_u128,
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(ser::Error::custom("float key must be finite"));
        }
        let (w, f) = (&mut self.ser.buf, &mut self.ser.formatter);
        io!(f.begin_string(w))?;
        io!(f.write_f32(w, v))?;
        io!(f.end_string(w))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(ser::Error::custom("float key must be finite"));
        }
        let (w, f) = (&mut self.ser.buf, &mut self.ser.formatter);
        io!(f.begin_string(w))?;
        io!(f.write_f64(w, v))?;
        io!(f.end_string(w))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        write_str(&mut self.ser.buf, v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _value: &T) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(s: &str) -> String {
        let mut ser = Serializer::with_formatter(Vec::new(), serde_json::ser::CompactFormatter);
        ser::Serializer::serialize_str(&mut ser, s).expect("writes");
        String::from_utf8(ser.finish().expect("writes")).expect("UTF-8")
    }

    #[test]
    fn every_byte_is_escaped_as_serde_json_escapes_it() {
        for b in 0u8..=0x7f {
            let c = char::from(b);
            for s in [
                c.to_string(),
                format!("abcdefg{c}"),
                format!("abcdefgh{c}ijklmnop"),
                format!("{c}{c}é{c}—{c}0123456789"),
            ] {
                assert_eq!(
                    ours(&s),
                    serde_json::to_string(&s).expect("serialises"),
                    "{b:#x}"
                );
            }
        }
    }

    proptest! {
        #[test]
        fn strings_are_escaped_as_serde_json_escapes_them(s in "(\\PC|[\\x00-\\x1f\"\\\\\\x7f])*") {
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).expect("serialises"));
        }
    }
}
