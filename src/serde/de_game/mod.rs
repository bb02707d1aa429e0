//! The game view in the struct-mapping deserializer: with
//! [`Options::with_game_view`](crate::Options::with_game_view), a typed array's elements and a
//! typed dictionary's keys are read as the game holds them (see [`game`](crate::game)).
//!
//! An element (or key) the game keeps is read from the buffer as usual; one it drops is passed
//! over; one it converts is made owned (with the game view, so what it holds is converted
//! first), converted with the owned layer's rules, and read from that owned value by
//! [`Converted`]: numbers, text (as owned strings: a converted value cannot lend `&'de str`),
//! math values (their reals single precision, as the game computes them), arrays and packed
//! arrays of those. A container key is read from its owned form too (made once to compare it
//! with the other keys as the game does). Keys that collide after conversion are merged as Godot merges them: first
//! position and first key, last value.
//!
//! Costs: O(1) per element kept or dropped, plus the size of each converted element; a typed
//! dictionary's keys are each made owned and hashed once (O(size of the keys)), and its merged
//! entries take 16 bytes each, plus the converted keys.
//!
//! Files: this one holds where the game view applies (`checked_type`, `game_key_type`), the
//! conversion of one element (`converted`) and a typed dictionary's entries as the game holds
//! them (`game_entries`, [`GameKey`]); `access.rs` reads those entries as a map or an enum;
//! `converted.rs` holds [`Converted`], the deserializer of an owned value the game view made.

use alloc::string::String;
use alloc::vec::Vec;

use ::serde::de::Error as _;

use super::error::{DeError, PathSegment};
use super::source::Source;
use crate::game::GameElement;
use crate::owned::key_semantics::KeyRules;
use crate::owned::typed::{Admitted, admit, game_type};
use crate::owned::{Dictionary, Variant};
use crate::view::tape::Part as TapePart;
use crate::wire::error::{Error, ErrorKind};
use crate::wire::work;
use crate::{ElementType, Options, Version, view::ContainerType, view::Element};

mod access;
mod converted;

pub(super) use access::{GameEntriesAccess, game_enum};
pub(super) use converted::Converted;

/// The declared type of a container part whose elements (or keys) the game view checks: `None`
/// without the game view or for an untyped container.
pub(super) fn checked_type<'de>(
    declared: crate::Result<ContainerType<'de>>,
    options: Options,
) -> Result<Option<ContainerType<'de>>, DeError> {
    if !options.game_view() {
        return Ok(None);
    }
    let declared = declared?;
    Ok((declared != ContainerType::Untyped).then_some(declared))
}

/// How the game view reads a dictionary's entries: `Some(key type)` when they must be read as
/// the game holds them (a typed dictionary, or one with container keys, which may hold typed
/// containers that convert: then keys are compared as the game holds them); `None` without
/// the game view or when the entries read as on the wire. O(keys) to look.
pub(super) fn game_key_type<'de>(
    source: &Source<'de>,
    dictionary: TapePart<'_, 'de>,
    key_type: crate::Result<ContainerType<'de>>,
) -> Result<Option<ContainerType<'de>>, DeError> {
    let options = dictionary.element().options();
    if let Some(key_type) = checked_type(key_type, options)? {
        return Ok(Some(key_type));
    }
    if !options.game_view() {
        return Ok(None);
    }
    for entry in source.all_entries(dictionary) {
        let (key, _) = entry?;
        if matches!(key.value(), crate::VariantRef::Array(_) | crate::VariantRef::Dictionary(_)) {
            return Ok(Some(ContainerType::Untyped));
        }
    }
    Ok(None)
}

/// The owned value the game makes of `element`, which it converts to `declared`'s type.
pub(super) fn converted(
    element: &Element<'_>,
    declared: &ContainerType<'_>,
) -> Result<Variant, DeError> {
    let options = element.options();
    let game_dependent = || DeError::from(Error::new(element.offset(), ErrorKind::GameDependent));
    let declared = game_type(ElementType::from_ref(declared)?, options.allow_objects());
    let value = Variant::from_element(element)?;
    match admit(&declared, value, options.allow_objects()).map_err(|_| game_dependent())? {
        Admitted::Kept(value) | Admitted::Converted(value) => Ok(value),
        Admitted::Dropped => Err(DeError::custom("an element the game drops was read")),
    }
}

/// The key of a dictionary's entry as the game holds it.
pub(super) enum GameKey<'s, 'de> {
    /// Kept as it is on the wire.
    Wire(TapePart<'s, 'de>),
    /// Converted, or a container key, made owned.
    Converted(Variant),
}

/// A typed dictionary's entries as the game holds them: keys it drops left out with their
/// values, the others converted, and entries whose keys are then equal merged (first position
/// and key, last value).
pub(super) fn game_entries<'s, 'de>(
    source: &'s Source<'de>,
    dictionary: TapePart<'s, 'de>,
    key_type: &ContainerType<'de>,
) -> Result<Vec<(GameKey<'s, 'de>, TapePart<'s, 'de>)>, DeError> {
    let options = dictionary.element().options();
    let rules = KeyRules::of(options.version());
    let mut merged = Dictionary::with_rules(ElementType::Untyped, ElementType::Untyped, rules);
    // Per position: the wire key when kept, and the value.
    let mut kept: Vec<(Option<TapePart<'s, 'de>>, TapePart<'s, 'de>)> = Vec::new();
    for entry in source.all_entries(dictionary) {
        let (key, value) = entry?;
        work::add(1);
        let element = key.element();
        let (owned, wire) = match key_type.game_element(element)? {
            None => continue,
            // A container key is read from its owned form, made once here (reading its wire
            // form would make the keys nested inside it owned again, at every level).
            Some(GameElement::Kept(_)) => {
                let container = matches!(
                    key.value(),
                    crate::VariantRef::Array(_) | crate::VariantRef::Dictionary(_)
                );
                (Variant::from_element(&element)?, (!container).then_some(key))
            }
            Some(_) => (converted(&element, key_type)?, None),
        };
        let position = merged.len();
        match merged.insert(owned, Variant::Int(position as i64)) {
            None => kept.push((wire, value)),
            // A key met before: it keeps its place (and its first key) and takes this value.
            Some(Variant::Int(first)) => {
                let first = usize::try_from(first).unwrap_or(usize::MAX);
                if let Some(slot) = merged.values_mut().nth(first) {
                    *slot = Variant::Int(first as i64);
                }
                if let Some((_, slot)) = kept.get_mut(first) {
                    *slot = value;
                }
            }
            Some(_) => {}
        }
    }
    let keys = merged.into_entries().into_iter().map(|(key, _)| key);
    Ok(kept
        .into_iter()
        .zip(keys)
        .map(|((wire, value), key)| match wire {
            Some(part) => (GameKey::Wire(part), value),
            None => (GameKey::Converted(key), value),
        })
        .collect())
}

/// How a converted key appears in a path.
fn owned_segment(key: &Variant) -> PathSegment {
    match key {
        Variant::String(s) | Variant::StringName(s) => {
            PathSegment::Field(s.to_string_lossy().into_owned())
        }
        Variant::Int(i) => PathSegment::Key(alloc::format!("{i}")),
        Variant::Bool(b) => PathSegment::Key(alloc::format!("{b}")),
        Variant::Float(f) => PathSegment::Key(alloc::format!("{f}")),
        other => PathSegment::Key(String::from(other.variant_type().name(Version::Godot4))),
    }
}
