//! Which string bytes Godot accepts, and which part of them is the text.
//!
//! Godot's `String::parse_utf8` skips a leading byte order mark (EF BB BF) and stops at the first
//! NUL byte, so [`text_of`] returns the bytes between those two points; nothing after a NUL is
//! looked at. Then:
//!
//! * **Godot 4** accepts exactly standard UTF-8 (any error of `parse_utf8` makes `decode_variant`
//!   fail): this is `core::str::from_utf8`.
//! * **Godot 3** runs an older, looser decoder ([`godot3_check`]): it accepts every standard UTF-8
//!   string, and also UTF-16 surrogates, code points above U+10FFFF, the 5- and 6-byte forms and
//!   some overlong 3- and 4-byte forms. It rejects C0/C1 leads, stray continuation bytes,
//!   FE/FF, and truncated sequences.
//!
//! Cost: one pass over the text (plus one `memchr` for the NUL).

use crate::wire::options::Version;

const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// The text part of a string's bytes: after a leading BOM, before the first NUL.
#[inline]
pub(crate) fn text_of(raw: &[u8]) -> &[u8] {
    let raw = raw.strip_prefix(BOM).unwrap_or(raw);
    match memchr::memchr(0, raw) {
        Some(nul) => raw.get(..nul).unwrap_or(raw),
        None => raw,
    }
}

/// Whether every byte of `bytes` is in `1..=0x7F`: ASCII without NUL, which is its own text and
/// valid in both versions. Short strings (most keys and names) byte by byte, longer ones eight
/// bytes at a time.
#[inline(always)]
pub(crate) fn is_plain_ascii(bytes: &[u8]) -> bool {
    if bytes.len() < 16 {
        bytes.iter().all(|&b| b.wrapping_sub(1) < 0x7F)
    } else {
        is_plain_ascii_long(bytes)
    }
}

/// [`is_plain_ascii`] eight bytes at a time, without early exits.
#[inline(never)]
fn is_plain_ascii_long(bytes: &[u8]) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    // A byte's high bit is set here when the byte is 0 or at least 0x80 (a borrow from a zero
    // byte can only mark bytes above a zero, which are refused anyway).
    let mut bad = 0u64;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        bad |= (word.wrapping_sub(LOW) & !word) | word;
    }
    let tail = chunks.remainder().iter().fold(0u8, |bad, &b| bad | b.wrapping_sub(1) | b);
    (bad & HIGH) == 0 && tail & 0x80 == 0
}

/// Checks `text` (already cut by [`text_of`]) against the rules of `version`; on failure returns
/// the index of the first byte Godot refuses.
#[inline]
pub(crate) fn check(version: Version, text: &[u8]) -> Result<(), usize> {
    match core::str::from_utf8(text) {
        Ok(_) => Ok(()),
        Err(error) => match version {
            Version::Godot4 => Err(error.valid_up_to()),
            Version::Godot3 => godot3_check(text),
        },
    }
}

/// Bytes that follow a lead byte in Godot 3's decoder, or `None` for a byte that cannot lead.
fn godot3_sequence_length(lead: u8) -> Option<usize> {
    match lead {
        0x00..=0x7F => Some(1),
        0xC0..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF7 => Some(4),
        0xF8..=0xFB => Some(5),
        0xFC..=0xFD => Some(6),
        _ => None,
    }
}

/// Godot 3.x `String::parse_utf8`, as a yes/no check: a counting pass that refuses bad leads,
/// C0/C1 and a sequence cut short, then a decoding pass that refuses bad continuation bytes and
/// Godot 3's narrow overlong test (lead and first continuation carry no bits, and the top bits
/// of the second continuation are zero).
pub(crate) fn godot3_check(text: &[u8]) -> Result<(), usize> {
    let mut index = 0;
    while let Some(&lead) = text.get(index) {
        let len = godot3_sequence_length(lead).ok_or(index)?;
        if len == 2 && lead & 0x1E == 0 {
            return Err(index);
        }
        let sequence = text.get(index..index.saturating_add(len)).ok_or(index)?;
        let lead_bits = 0xFFu8.checked_shr(len.saturating_add(1) as u32).unwrap_or(0);
        let mut code_point: u32 = u32::from(lead & lead_bits);
        for (position, &byte) in sequence.iter().enumerate().skip(1) {
            if byte & 0xC0 != 0x80 {
                return Err(index.saturating_add(position));
            }
            let top_bits =
                (byte & 0x7F).checked_shr(7usize.saturating_sub(len) as u32).unwrap_or(0);
            if code_point == 0 && position == 2 && top_bits == 0 {
                return Err(index);
            }
            code_point = (code_point << 6) | u32::from(byte & 0x3F);
        }
        index = index.saturating_add(len);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_skips_bom_and_stops_at_nul() {
        assert_eq!(text_of(b"a\0b"), b"a");
        assert_eq!(text_of(b"\xEF\xBB\xBFab"), b"ab");
        assert_eq!(text_of(b"\xEF\xBB"), b"\xEF\xBB");
        assert_eq!(text_of(b"a\0\xFF"), b"a");
    }

    #[test]
    fn plain_ascii_is_found_at_every_position() {
        for len in 0..40 {
            assert!(is_plain_ascii(&[b'a'; 40][..len]));
            for at in 0..len {
                for (byte, plain) in
                    [(0u8, false), (0x80, false), (0xFF, false), (0x7F, true), (1, true)]
                {
                    let mut text = [b'a'; 40];
                    text[at] = byte;
                    assert_eq!(is_plain_ascii(&text[..len]), plain, "{len} {at} {byte}");
                }
            }
        }
    }

    #[test]
    fn corpus_utf8_verdicts() {
        for version in [Version::Godot3, Version::Godot4] {
            assert!(check(version, b"\xC3\x28").is_err());
            assert!(check(version, b"\xC0\xAF").is_err());
            assert!(check(version, b"\xE9").is_err());
            assert!(check(version, "h\u{e9}llo \u{1F600}".as_bytes()).is_ok());
        }
        // Godot 3 accepts a surrogate; Godot 4 does not.
        assert!(check(Version::Godot3, b"\xED\xA0\x80").is_ok());
        assert!(check(Version::Godot4, b"\xED\xA0\x80").is_err());
    }
}
