//! [`Detail`]: what a dropped message's reason says, written inline so that a flood of drops
//! allocates nothing.

use core::fmt::{self, Write as _};

use arrayvec::ArrayString;

/// A drop's detail: text of at most [`Detail::CAPACITY`] bytes held inline; longer text is cut
/// at a character boundary and ends in `…`. Writing it is O(its length), with no allocation.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Detail {
    text: ArrayString<{ Detail::CAPACITY }>,
}

impl Detail {
    /// The most bytes a detail holds.
    pub const CAPACITY: usize = 160;

    /// `text` as a detail, cut to [`Detail::CAPACITY`] bytes.
    pub fn new(text: impl fmt::Display) -> Self {
        let mut detail = Detail::default();
        let mut writer = Cut { detail: &mut detail, full: false };
        // `Cut` never fails; a `Display` that does leaves what it wrote.
        let _ = write!(writer, "{text}");
        detail
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Debug for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::ops::Deref for Detail {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Detail {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Detail {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Writes into a detail until it is full, then marks the cut with `…`.
struct Cut<'d> {
    detail: &'d mut Detail,
    full: bool,
}

/// The ellipsis that ends a cut detail.
const MORE: char = '…';

impl fmt::Write for Cut<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.full {
            return Ok(());
        }
        let text = &mut self.detail.text;
        if text.try_push_str(s).is_ok() {
            return Ok(());
        }
        // Keep room for the ellipsis, then as many whole characters as fit.
        let room = Detail::CAPACITY.saturating_sub(MORE.len_utf8());
        while text.len() > room {
            text.pop();
        }
        for c in s.chars() {
            if text.len().saturating_add(c.len_utf8()) > room {
                break;
            }
            text.push(c);
        }
        text.push(MORE);
        self.full = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_and_long_text_is_cut_at_a_character() {
        assert_eq!(
            Detail::new(format_args!("{}::{}", "World/Player", "jump")),
            "World/Player::jump"
        );
        let long = "é".repeat(200);
        let detail = Detail::new(&long);
        assert!(detail.len() <= Detail::CAPACITY, "{}", detail.len());
        assert!(detail.ends_with('…'));
        assert!(long.starts_with(detail.trim_end_matches('…')));
        // Pieces that overflow one after another.
        let pieces = Detail::new(format_args!("{}{}{}", "a".repeat(100), "b".repeat(100), "c"));
        assert_eq!(pieces.len(), Detail::CAPACITY);
        assert!(pieces.starts_with(&"a".repeat(100)) && pieces.ends_with("b…"));
    }
}
