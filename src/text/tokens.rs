//! The small pieces the text is made of: list brackets and separators, reals, escaped and raw
//! strings, integers.

use super::*;

impl<'w, 'a, W: Write + ?Sized> TextWriter<'w, 'a, W> {
    /// `Name(` or `Name( ` for a packed array.
    pub(super) fn list_open(&mut self, name: &str) -> fmt::Result {
        self.out.write_str(name)?;
        self.out.write_str(if self.godot3() { "( " } else { "(" })
    }

    pub(super) fn list_close(&mut self) -> fmt::Result {
        self.out.write_str(if self.godot3() { " )" } else { ")" })
    }

    pub(super) fn separator(&mut self, index: usize) -> fmt::Result {
        if index > 0 { self.out.write_str(", ") } else { Ok(()) }
    }

    /// A real component.
    pub(super) fn real(&mut self, value: f64) -> fmt::Result {
        match self.version {
            Version::Godot3 => float::write_real_godot3(self.out, value),
            Version::Godot4 => float::write_real_godot4(self.out, value),
        }
    }

    /// Real components separated by `, `.
    pub(super) fn reals(&mut self, values: &[f64]) -> fmt::Result {
        for (i, value) in values.iter().enumerate() {
            self.separator(i)?;
            self.real(*value)?;
        }
        Ok(())
    }

    /// A string's text as the game reads it, checked, without escaping (class and property
    /// names).
    pub(super) fn raw_text(&mut self, s: GdStr<'_>) -> Result<(), TextError> {
        s.check()?;
        self.out.write_str(&lossy(&s))?;
        Ok(())
    }

    /// A string's text as the game reads it (overlong forms as the characters they spell, code
    /// points `str` cannot hold as U+FFFD), checked and escaped. The scan is by bytes: every
    /// character escaped is ASCII, and no byte of a multi-byte character is below 0x80.
    pub(super) fn escaped(&mut self, s: GdStr<'_>, escape: Escape) -> Result<(), TextError> {
        s.check()?;
        let text = lossy(&s);
        let godot3 = self.godot3();
        let mut plain = 0usize;
        for (i, &byte) in text.as_bytes().iter().enumerate() {
            let replacement = match (byte, escape) {
                (b'\\', _) => "\\\\",
                (b'"', _) => "\\\"",
                (_, Escape::Multiline) => continue,
                (0x07, Escape::C) => "\\a",
                (0x08, Escape::C) => "\\b",
                (0x0c, Escape::C) => "\\f",
                (b'\n', Escape::C) => "\\n",
                (b'\r', Escape::C) => "\\r",
                (b'\t', Escape::C) => "\\t",
                (0x0b, Escape::C) => "\\v",
                (b'\'', Escape::C) => "\\'",
                (b'?', Escape::C) if godot3 => "\\?",
                _ => continue,
            };
            self.out.write_str(text.get(plain..i).unwrap_or(""))?;
            self.out.write_str(replacement)?;
            plain = i.saturating_add(1);
        }
        self.out.write_str(text.get(plain..).unwrap_or(""))?;
        Ok(())
    }
}

/// [`GdStr::to_string_lossy`], without its search for a NUL when the string is short ASCII
/// (`to_str`'s fast path; the text is the same).
fn lossy<'a>(s: &GdStr<'a>) -> alloc::borrow::Cow<'a, str> {
    match s.to_str() {
        Ok(text) => alloc::borrow::Cow::Borrowed(text),
        Err(_) => s.to_string_lossy(),
    }
}

/// Whether Godot prints (and compares) `path` as absolute: Godot 3 keeps no data for a path
/// without names and subnames, so it forgets the flag there (`NodePath("")`).
pub(in crate::text) fn node_path_absolute(
    path: &crate::view::NodePathRef<'_>,
    version: Version,
) -> bool {
    path.is_absolute()
        && (version == Version::Godot4 || path.name_count() > 0 || path.subname_count() > 0)
}

/// `Name(1, 2)` for an integer vector.
pub(super) fn write_ints<W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    open: &str,
    close: &str,
    each: impl FnOnce(&mut dyn FnMut(i32)),
) -> fmt::Result {
    out.write_str(name)?;
    out.write_str(open)?;
    let mut result = Ok(());
    let mut first = true;
    each(&mut |c| {
        if result.is_ok() {
            let separator = if core::mem::replace(&mut first, false) { "" } else { ", " };
            result = out
                .write_str(separator)
                .and_then(|()| out.write_str(itoa::Buffer::new().format(c)));
        }
    });
    result?;
    out.write_str(close)
}
