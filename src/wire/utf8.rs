//! Which string bytes Godot accepts, which part of them is the text, and which code points the
//! game reads from it.
//!
//! Godot's `String::parse_utf8` skips a leading byte order mark (EF BB BF) and stops at the first
//! NUL byte, so [`text_of`] returns the bytes between those two points; nothing after a NUL is
//! looked at. Then:
//!
//! * **Godot 4** accepts exactly standard UTF-8 (any error of `parse_utf8` makes `decode_variant`
//!   fail): this is `core::str::from_utf8`, and the code points are the standard ones.
//! * **Godot 3** runs an older, looser decoder ([`godot3_check`], [`godot3_sequence`]): it accepts
//!   every standard UTF-8 string, and also UTF-16 surrogates, code points above U+10FFFF, the 5-
//!   and 6-byte forms and most overlong 3- to 6-byte forms, each one code point (`E0 81 B4` is
//!   `t`). It rejects C0/C1 leads, stray continuation bytes, FE/FF, and truncated sequences.
//!   Godot 3 writes a string back ([`godot3_encode`]) with every code point in its shortest form
//!   of up to 6 bytes, so overlong forms are normalised and everything else is kept.
//!
//! [`CodePoints`] is the one decoder: Godot 3's sequence rule, which gives the standard code
//! points for standard UTF-8. Each multi-byte sequence it reads counts a unit of work
//! (`crate::wire::work`). The sweeps of `corpus/probes/` (every 2-byte string, and 3- to
//! 6-byte strings around each lead byte where the engines differ) hold each engine's code
//! points for every input it accepts, and the tests require exactly those.
//!
//! Cost: one pass over the text (plus one `memchr` for the NUL), O(1) per sequence.

use crate::wire::options::Version;
use crate::wire::work;

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

/// Godot 3.x `String::parse_utf8`, as a yes/no check: every sequence must pass
/// [`godot3_sequence`]. (Godot counts the sequences in a first pass and decodes them in a
/// second; the verdict is the same.)
pub(crate) fn godot3_check(text: &[u8]) -> Result<(), usize> {
    let mut index = 0;
    while let Some(rest) = text.get(index..).filter(|rest| !rest.is_empty()) {
        let (_, len) = godot3_sequence(rest).map_err(|at| index.saturating_add(at))?;
        index = index.saturating_add(len);
    }
    Ok(())
}

/// The first sequence of `text` as Godot 3.2.3's decoder reads it: its code point and its length
/// in bytes, or the index of the byte Godot refuses (a byte that cannot lead, C0/C1, a sequence
/// cut short, a continuation byte that is not `10xxxxxx`, or Godot 3's narrow overlong test:
/// lead and first continuation carry no bits, and the top bits of the second continuation are
/// zero). The code point is the lead's bits followed by six bits of each continuation byte,
/// with no range or surrogate check, so a well-formed (standard) sequence decodes to its
/// standard code point. `text` must not be empty. O(1).
pub(crate) fn godot3_sequence(text: &[u8]) -> Result<(u32, usize), usize> {
    work::add(1);
    let &lead = text.first().ok_or(0usize)?;
    let len = godot3_sequence_length(lead).ok_or(0usize)?;
    if len == 1 {
        return Ok((u32::from(lead), 1));
    }
    if len == 2 && lead & 0x1E == 0 {
        return Err(0);
    }
    let sequence = text.get(..len).ok_or(0usize)?;
    let lead_bits = 0xFFu8.checked_shr(len.saturating_add(1) as u32).unwrap_or(0);
    let mut code_point: u32 = u32::from(lead & lead_bits);
    for (position, &byte) in sequence.iter().enumerate().skip(1) {
        if byte & 0xC0 != 0x80 {
            return Err(position);
        }
        let top_bits = (byte & 0x7F).checked_shr(7usize.saturating_sub(len) as u32).unwrap_or(0);
        if code_point == 0 && position == 2 && top_bits == 0 {
            return Err(0);
        }
        code_point = (code_point << 6) | u32::from(byte & 0x3F);
    }
    Ok((code_point, len))
}

/// Whether `code_point` is one Rust's `char` can hold (a Unicode scalar value).
#[inline]
pub(crate) fn is_scalar(code_point: u32) -> bool {
    char::from_u32(code_point).is_some()
}

/// Godot 3.2.3's `String::utf8()` of one code point (what `var2bytes` writes): its shortest
/// form, of up to 6 bytes, surrogates included (3 bytes). `code_point` is at most
/// `0x7FFF_FFFF` (the most 6 bytes hold; larger values lose their top bit). O(1).
pub(crate) fn godot3_encode(code_point: u32, out: &mut [u8; 6]) -> &[u8] {
    let len: usize = match code_point {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        0x1_0000..=0x1F_FFFF => 4,
        0x20_0000..=0x3FF_FFFF => 5,
        _ => 6,
    };
    let (marker, lead_bits): (u8, u32) = match len {
        1 => (0x00, 0x7F),
        2 => (0xC0, 0x1F),
        3 => (0xE0, 0x0F),
        4 => (0xF0, 0x07),
        5 => (0xF8, 0x03),
        _ => (0xFC, 0x01),
    };
    let mut rest = code_point;
    for slot in out.iter_mut().take(len).skip(1).rev() {
        *slot = 0x80 | (rest & 0x3F) as u8;
        rest >>= 6;
    }
    if let Some(first) = out.first_mut() {
        *first = marker | (rest & lead_bits) as u8;
    }
    out.get(..len).unwrap_or(&[])
}

/// The code points of a string's text as the game sees them: Godot 3.2.3's decoding (each
/// sequence is its lead byte's bits followed by six bits of each continuation byte, so overlong
/// forms are the characters they encode, and surrogates and values up to `0x7FFF_FFFF` are kept),
/// which for standard UTF-8, and so for every Godot 4 string, is the standard decoding.
///
/// Made by [`GdStr::code_points`](crate::view::GdStr::code_points) and `GdString::code_points`
/// (feature `alloc`), over text Godot accepts; a byte no such text holds gives U+FFFD and the
/// iterator moves on one byte. O(1) per code point, no allocation.
#[derive(Clone, Debug)]
pub struct CodePoints<'a> {
    rest: &'a [u8],
}

impl<'a> CodePoints<'a> {
    /// The code points of `text`, accepted text after [`text_of`].
    pub(crate) fn new(text: &'a [u8]) -> Self {
        CodePoints { rest: text }
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.rest
    }
}

impl Iterator for CodePoints<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let &first = self.rest.first()?;
        let (code_point, len) = if first < 0x80 {
            (u32::from(first), 1)
        } else {
            godot3_sequence(self.rest).unwrap_or((u32::from(char::REPLACEMENT_CHARACTER), 1))
        };
        self.rest = self.rest.get(len..).unwrap_or(&[]);
        Some(code_point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.rest.len().div_ceil(6), Some(self.rest.len()))
    }
}

impl core::iter::FusedIterator for CodePoints<'_> {}

/// The index of the first sequence of Godot 3 text (accepted by [`godot3_check`]) that is not
/// the shortest form of its code point (an overlong form), if any. O(n).
pub(crate) fn godot3_first_overlong(text: &[u8]) -> Option<usize> {
    let mut index = 0usize;
    let mut buffer = [0u8; 6];
    while let Some(rest) = text.get(index..).filter(|rest| !rest.is_empty()) {
        let (code_point, len) = godot3_sequence(rest).unwrap_or((0, 1));
        if godot3_encode(code_point, &mut buffer).len() != len {
            return Some(index);
        }
        index = index.saturating_add(len);
    }
    None
}

/// The index of the first sequence of Godot 3 text (accepted by [`godot3_check`]) whose code
/// point is not a Unicode scalar value (a surrogate or a value above U+10FFFF), if any. O(n).
pub(crate) fn godot3_first_not_scalar(text: &[u8]) -> Option<usize> {
    let mut index = 0usize;
    while let Some(rest) = text.get(index..).filter(|rest| !rest.is_empty()) {
        let (code_point, len) = godot3_sequence(rest).unwrap_or((0, 1));
        if !is_scalar(code_point) {
            return Some(index);
        }
        index = index.saturating_add(len);
    }
    None
}

/// Whether Godot 3 reads `raw` (a string's bytes, after a skipped BOM) as exactly `text`:
/// sequence by sequence, each decoding to the next character of `text`, then the end of `raw` or
/// a NUL. Reads no further than `text` needs: O(length of `text`).
pub(crate) fn godot3_spells(raw: &[u8], text: &str) -> bool {
    let mut rest = raw;
    for c in text.chars() {
        if matches!(rest.first(), None | Some(0)) {
            return false;
        }
        match godot3_sequence(rest) {
            Ok((code_point, len)) if code_point == u32::from(c) => {
                rest = rest.get(len..).unwrap_or(&[]);
            }
            _ => return false,
        }
    }
    matches!(rest.first(), None | Some(0))
}

/// Godot 3's own bytes for accepted Godot 3 text: every code point in its shortest form
/// ([`godot3_encode`]), so overlong forms are normalised and everything else is kept. Equal for
/// texts of equal code points, and ordered as their code points. O(n).
#[cfg(feature = "alloc")]
pub(crate) fn godot3_shortest(text: &[u8]) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec::Vec::with_capacity(text.len());
    let mut buffer = [0u8; 6];
    for code_point in CodePoints::new(text) {
        out.extend_from_slice(godot3_encode(code_point, &mut buffer));
    }
    out
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

#[cfg(all(test, feature = "alloc"))]
mod decoder_tests {
    use super::*;
    use alloc::vec::Vec;

    /// Every input of the engines' UTF-8 sweeps that the engine accepted, with the code points
    /// the engine read from it (`corpus/probes/sweep-godot{3,4}.tsv`).
    fn sweep(tsv: &str) -> impl Iterator<Item = (Vec<u8>, Vec<u32>)> + '_ {
        tsv.lines().filter(|line| !line.starts_with('#')).map(|line| {
            let mut fields = line.split('\t');
            let hex = fields.next().unwrap();
            let bytes = hex
                .as_bytes()
                .chunks(2)
                .map(|pair| u8::from_str_radix(core::str::from_utf8(pair).unwrap(), 16).unwrap())
                .collect();
            let length: usize = fields.next().unwrap().parse().unwrap();
            let points: Vec<u32> = fields
                .next()
                .unwrap()
                .split(',')
                .filter(|p| !p.is_empty())
                .map(|p| u32::from_str_radix(p, 16).unwrap())
                .collect();
            assert_eq!(points.len(), length, "{hex}");
            (bytes, points)
        })
    }

    #[test]
    fn decoder_reads_the_engines_code_points_on_every_accepted_sweep_input() {
        let sweeps = [
            (Version::Godot3, include_str!("../../corpus/probes/sweep-godot3.tsv"), 22_000),
            (Version::Godot4, include_str!("../../corpus/probes/sweep-godot4.tsv"), 19_000),
        ];
        for (version, tsv, at_least) in sweeps {
            let mut count = 0;
            let mut normalised = 0;
            // Under Miri, one input in 64 (each version's overlong forms among them).
            let every = if cfg!(miri) { 64 } else { 1 };
            for (bytes, engine) in sweep(tsv).step_by(every) {
                let text = text_of(&bytes);
                assert_eq!(check(version, text), Ok(()), "{version:?} {bytes:02x?}");
                let ours: Vec<u32> = CodePoints::new(text).collect();
                assert_eq!(ours, engine, "{version:?} {bytes:02x?}");
                // Written back in the shortest forms, the text reads the same code points.
                let shortest = godot3_shortest(text);
                assert_eq!(CodePoints::new(&shortest).collect::<Vec<_>>(), engine);
                assert_eq!(godot3_first_overlong(&shortest), None);
                if shortest != text {
                    assert!(godot3_first_overlong(text).is_some(), "{bytes:02x?}");
                    normalised += 1;
                }
                count += 1;
            }
            assert!(count * every > at_least, "{version:?}: {count} accepted inputs");
            // Only Godot 3 accepts overlong forms.
            assert_eq!(normalised > 0, version == Version::Godot3, "{normalised}");
        }
    }

    #[test]
    fn shortest_forms_are_godots() {
        // Godot 3.2.3's own re-encodings (`utf8_hex` of `corpus/probes/godot3.jsonl`).
        let cases: [(&[u8], &[u8]); 8] = [
            (b"\xE0\x80\x90", b"\x10"),
            (b"\xE0\x9F\xBF", b"\xDF\xBF"),
            (b"\xF0\x80\x88\x80", b"\xC8\x80"),
            (b"\xF8\x80\x84\x80\x80", b"\xE4\x80\x80"),
            (b"\xFC\x80\x82\x80\x80\x80", b"\xF2\x80\x80\x80"),
            (b"\xED\xA0\xBD\xED\xB8\x80", b"\xED\xA0\xBD\xED\xB8\x80"),
            (b"\xFB\xBF\xBF\xBF\xBF", b"\xFB\xBF\xBF\xBF\xBF"),
            (b"\xFD\xBF\xBF\xBF\xBF\xBF", b"\xFD\xBF\xBF\xBF\xBF\xBF"),
        ];
        for (input, godot) in cases {
            assert_eq!(godot3_shortest(input), godot, "{input:02x?}");
        }
    }

    #[test]
    fn spelled_with_overlong_forms() {
        assert!(godot3_spells(b"\xE0\x81\xB4ype", "type"));
        assert!(godot3_spells(b"\xE0\x81\xB4ype\0junk\xFF", "type"));
        assert!(!godot3_spells(b"\xE0\x81\xB4ypes", "type"));
        assert!(!godot3_spells(b"\xE0\x81\xB4yp", "type"));
        assert!(!godot3_spells(b"\xE0\x81\xB4ype", "type\0"));
        assert!(!godot3_spells(b"\xE0\x81", "t"));
        assert!(godot3_spells("h\u{e9}".as_bytes(), "h\u{e9}"));
        assert_eq!(godot3_first_overlong(b"ab\xE0\x81\xB4"), Some(2));
        assert_eq!(godot3_first_not_scalar(b"ab\xE0\x81\xB4\xED\xA0\x80"), Some(5));
        assert_eq!(godot3_first_not_scalar("h\u{e9}".as_bytes()), None);
    }
}
