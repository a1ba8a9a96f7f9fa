//! JSON strings escaped a word at a time (issue 17): eight bytes looked at together while they
//! are clean (`"`, `\` and the C0 controls are escaped), then byte by byte, written with
//! their quotes as serde_json writes them.

/// Eight copies of the byte `b` in a word.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Whether any byte of the word `w` needs escaping in a JSON string: below 0x20, `"` or `\`.
/// Exact for the word as a whole (it says which words to look into byte by byte).
fn word_needs_escape(w: u64) -> bool {
    const LOW: u64 = splat(0x01);
    const HIGH: u64 = splat(0x80);
    let zero_in = |v: u64| v.wrapping_sub(LOW) & !v & HIGH != 0;
    // A byte below 0x20: subtracting 0x20 borrows into its high bit (bytes ≥ 0x80 excluded).
    let below = w.wrapping_sub(splat(0x20)) & !w & HIGH != 0;
    below || zero_in(w ^ splat(b'"')) || zero_in(w ^ splat(b'\\'))
}

/// Whether a JSON string must escape the byte: `"`, `\\` and the C0 controls.
const ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20 || b == b'"' as usize || b == b'\\' as usize;
        b += 1;
    }
    table
};

/// The index of the first byte of `bytes` at or after `from` that a JSON string must escape:
/// eight bytes at a time while they are clean, then byte by byte.
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(word) = bytes.get(at..at + 8) {
        if word_needs_escape(u64::from_le_bytes(word.try_into().expect("eight bytes"))) {
            break;
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| ESCAPE[usize::from(b)])
        .map(|i| at + i)
}

/// A JSON string with its quotes, escaped as serde_json escapes it. Written straight into the
/// buffer, not through the formatter: serde_json's formatters (ours included) write strings
/// with the trait's own methods, whose bytes these are.
pub(super) fn write_str(out: &mut Vec<u8>, value: &str) {
    let bytes = value.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    while let Some(at) = next_escape(bytes, start) {
        out.extend_from_slice(&bytes[start..at]);
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let byte = bytes[at];
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0a => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            0x0d => out.extend_from_slice(b"\\r"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xf)],
            ]),
        }
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_looked_into_only_when_it_holds_a_byte_to_escape() {
        for b in 0u8..=0xff {
            for at in 0..8 {
                let mut word = *b"abcdefgh";
                word[at] = b;
                let w = u64::from_ne_bytes(word);
                assert_eq!(
                    word_needs_escape(w),
                    ESCAPE[usize::from(b)],
                    "{b:#x} at {at}"
                );
            }
        }
    }

    #[test]
    fn the_first_byte_to_escape_is_found_at_any_length_and_place() {
        for len in 0..40 {
            let clean = "a".repeat(len);
            assert_eq!(next_escape(clean.as_bytes(), 0), None, "{len}");
            for at in 0..len {
                for b in [b'"', b'\\', b'\n', 0u8, 0x1f] {
                    let mut bytes = clean.clone().into_bytes();
                    bytes[at] = b;
                    for from in 0..=at {
                        assert_eq!(next_escape(&bytes, from), Some(at), "{len} {at} {from}");
                    }
                    assert_eq!(next_escape(&bytes, at + 1), None, "{len} {at}");
                }
            }
        }
    }
}
