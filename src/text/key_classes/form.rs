//! The canonical form of one value, read into the scratch buffer of [`KeyClasses`]: its type,
//! then what Godot's key equality looks at (floats canonical, math values narrowed as Godot
//! stores them, strings by their text, packed arrays where they lie, containers by their
//! children's numbers, a Godot 4 dictionary's repeated keys merged), or the verdict that the
//! value equals nothing else ([`Formed::Unique`]) or not even itself ([`Formed::Lost`]).
//!
//! What it validates: the strings inside a `NodePath` or `PackedStringArray` (a malformed one is
//! an error). Costs: O(the value's own bytes + its children), a container's children being
//! numbered already; a dictionary's merge is O(entries) expected.

use crate::text::order::{id_of, int_components, real_components, type_id};
use crate::view::tape::Part;
use crate::wire::error::Result;
use crate::wire::identity::{Identity, Place};
use crate::wire::types::VariantType;
use crate::wire::work;
use crate::{VariantRef, view::ObjectRef};

use super::pieces::{Piece, canonical};
use super::{Formed, KeyClasses, LOST, MUTATES, UNKNOWN, key_number, string_name_bit};

impl<'a> KeyClasses<'a> {
    /// Reads the canonical form of `part` into the scratch buffer, or says the value is equal to
    /// nothing else or not even to itself. A container's children are numbered already.
    pub(super) fn form(
        &mut self,
        part: Part<'_, 'a>,
        value: VariantRef<'a>,
        opens: bool,
    ) -> Result<Formed> {
        use VariantRef as V;
        self.scratch.clear();
        let identity = Identity::of(self.version);
        let pieces = &mut self.scratch;
        let ty = match value {
            // One type for both strings in Godot 4.
            V::StringName(_) if string_name_bit(identity) => {
                id_of(VariantType::String, self.version)
            }
            _ => type_id(&value, self.version),
        };
        pieces.push(Piece::Word(u64::from(ty)));
        if opens && matches!(value, V::Dictionary(_)) {
            // Godot builds a dictionary through its map: a repeated key keeps its first place
            // and takes the last value (a lost key is never found, so never repeats). Godot 4:
            // keys as keys, values as values, in that order (its hash folds the entries in
            // order).
            self.merged.clear();
            self.merged_at.clear();
            let mut children = part.children();
            while let (Some(key), Some(value)) = (children.next(), children.next()) {
                work::add(1);
                let number_of = |p: Part<'_, '_>| {
                    self.numbers.get(p.index() as usize).copied().unwrap_or(UNKNOWN)
                };
                let (k, v) = (key_number(number_of(key)), number_of(value));
                let nan = matches!(value.value(), V::Float(f) if f.is_nan());
                match self.merged_at.get(&k) {
                    Some(&at) => {
                        if let Some(slot) = self.merged.get_mut(at) {
                            *slot = (k, v, nan);
                        }
                    }
                    None => {
                        self.merged_at.insert(k, self.merged.len());
                        self.merged.push((k, v, nan));
                    }
                }
            }
            let (mut nan, mut lost_key, mut mutates) = (false, false, false);
            for &(k, v, value_nan) in &self.merged {
                pieces.push(Piece::Word(u64::from(k)));
                pieces.push(Piece::Word(u64::from(v)));
                nan |= value_nan;
                lost_key |= k & LOST != 0;
                mutates |= (k | v) & MUTATES != 0;
            }
            pieces.push(Piece::Word(self.merged.len() as u64));
            let by_content = identity.dictionaries_by_content();
            return Ok(match () {
                // By reference; printing adds an entry for each key it does not find (its own,
                // or those of what it holds), which changes what holds it.
                () if !by_content && (lost_key || mutates) => Formed::Lost { mutates: true },
                () if !by_content => Formed::Unique,
                // A float NaN value compared with `==`: the dictionary equals nothing else.
                () if nan && !identity.float_nans_equal(Place::Value) => Formed::Unique,
                () => Formed::Canonical,
            });
        }
        if opens {
            // An array.
            let mut count = 0u64;
            let (mut lost, mut mutates, mut nan) = (false, false, false);
            for child in part.children() {
                let number = self.numbers.get(child.index() as usize).copied().unwrap_or(UNKNOWN);
                lost |= number & LOST != 0;
                mutates |= number & MUTATES != 0;
                nan |= matches!(child.value(), V::Float(f) if f.is_nan());
                pieces.push(Piece::Word(u64::from(number)));
                count = count.saturating_add(1);
            }
            pieces.push(Piece::Word(count));
            return Ok(match () {
                // Element by element, so an array holding a lost value is lost.
                () if lost => Formed::Lost { mutates },
                // Array elements compared with `==`: a NaN differs from everything.
                () if nan && !identity.float_nans_equal(Place::Value) => Formed::Unique,
                () => Formed::Canonical,
            });
        }
        if let Some(reals) = real_components(&value) {
            pieces.extend(reals.as_slice().iter().map(|c| Piece::Word(canonical(*c))));
            return Ok(Formed::Canonical);
        }
        if let Some((ints, len)) = int_components(&value) {
            pieces.extend(ints.iter().take(len).map(|c| Piece::Word(u64::from(*c as u32))));
            return Ok(Formed::Canonical);
        }
        if identity.reals_by_bytes() {
            if let V::PackedFloat32Array(reals) = value {
                if reals.iter().any(f32::is_nan) {
                    // Godot 3.2's pool comparison negates only the first half of its NaN test.
                    return Ok(Formed::Lost { mutates: false });
                }
            }
            // Godot 3 hashes a pool of reals (not one of vectors or colors) by its bytes: -0.0
            // and 0.0 make other keys.
            if let V::PackedFloat32Array(reals) = value {
                pieces.push(Piece::Bytes(reals.raw_bytes()));
                return Ok(Formed::Canonical);
            }
        }
        match value {
            V::Nil | V::Callable | V::Object(ObjectRef::Null) => {}
            V::Bool(b) => pieces.push(Piece::Word(u64::from(b))),
            V::Int(i) => pieces.push(Piece::Word(i as u64)),
            V::Float(f) => pieces.push(Piece::Word(canonical(f))),
            V::String(s) | V::StringName(s) => pieces.push(Piece::Text(s.game_text()?)),
            V::Rid(id) => {
                pieces.push(Piece::Word(u64::from(id.is_some())));
                pieces.push(Piece::Word(id.unwrap_or(0)));
            }
            V::Signal(signal) => {
                pieces.push(Piece::Word(signal.object_id()));
                pieces.push(Piece::Text(signal.name().game_text()?));
            }
            V::NodePath(path) => {
                pieces.push(Piece::Word(u64::from(crate::text::tokens::node_path_absolute(
                    &path,
                    self.version,
                ))));
                pieces.push(Piece::Word(path.name_count() as u64));
                pieces.push(Piece::Word(path.subname_count() as u64));
                for part in path.names().chain(path.subnames()) {
                    pieces.push(Piece::Text(part?.game_text()?));
                }
            }
            V::PackedStringArray(strings) => {
                pieces.push(Piece::Word(strings.len() as u64));
                for s in strings.iter() {
                    pieces.push(Piece::Text(s?.game_text()?));
                }
            }
            V::PackedByteArray(_)
            | V::PackedInt32Array(_)
            | V::PackedInt64Array(_)
            | V::PackedFloat32Array(_)
            | V::PackedFloat64Array(_)
            | V::PackedColorArray(_)
            | V::PackedVector2Array(_)
            | V::PackedVector3Array(_)
            | V::PackedVector4Array(_) => pieces.push(Piece::Packed(value)),
            // Objects: equal to nothing else.
            _ => return Ok(Formed::Unique),
        }
        Ok(Formed::Canonical)
    }
}
