//! Values in the index are encoded here and only here (bincode 2, standard config), so the
//! encoding could switch (to postcard, say) by changing this one module and the schema version.

use serde::de::DeserializeOwned;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
#[error("an index value does not decode: {0}")]
pub struct DecodeError(String);

pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("plain data always encodes")
}

/// Decodes a value that borrows its strings from `bytes`.
pub fn decode_borrowed<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, DecodeError> {
    bincode::serde::borrow_decode_from_slice(bytes, bincode::config::standard())
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    bincode::serde::decode_from_slice(bytes, bincode::config::standard())
        .map(|(v, _)| v)
        .map_err(|e| DecodeError(e.to_string()))
}
