//! `Serialize` and `Deserialize` for [`GdString`]: a string as its text, or, when it holds code
//! points Rust's `str` cannot (a Godot 3 string with surrogates or values above U+10FFFF), as
//! the sequence of its code points.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use ::serde::de::{Deserialize, Deserializer, Error, SeqAccess, Unexpected, Visitor};
use ::serde::ser::{Serialize, Serializer};

use super::repr::CodePointSeq;
use crate::owned::GdString;

/// Code points read ahead of their sequence's end at most (a sequence's length hint is not
/// trusted further).
const RESERVE_AT_MOST: usize = 4096;

impl Serialize for GdString {
    /// A string (`"a"`) when it is text; otherwise the sequence of its code points
    /// (`[97, 55296]`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_str() {
            Some(text) => serializer.serialize_str(text),
            None => CodePointSeq(self.code_points()).serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for GdString {
    /// A string, or a sequence of code points (each from 1 to `0x7FFF_FFFF`), as
    /// [`Serialize`] writes them. Needs a self-describing format (`deserialize_any`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(GdStringVisitor)
    }
}

struct GdStringVisitor;

impl<'de> Visitor<'de> for GdStringVisitor {
    type Value = GdString;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, or a sequence of code points")
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<GdString, E> {
        Ok(GdString::from(text))
    }

    fn visit_string<E: Error>(self, text: String) -> Result<GdString, E> {
        Ok(GdString::from(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<GdString, A::Error> {
        let mut points = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(RESERVE_AT_MOST));
        while let Some(point) = seq.next_element::<u32>()? {
            points.push(point);
        }
        GdString::from_code_points(points).ok_or_else(|| {
            A::Error::invalid_value(Unexpected::Seq, &"code points from 1 to 0x7FFFFFFF")
        })
    }
}
