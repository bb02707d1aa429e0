//! Typed containers as the game holds them, in owned values: what [`decode`](crate::decode)
//! (and everything built on it) does with
//! [`Options::with_game_view`](crate::Options::with_game_view).
//!
//! Each element of a typed `Array`, and each key of a typed `Dictionary`, is checked when it is
//! placed, after everything inside it (so a typed array inside a typed array is converted
//! first, as in Godot): kept, converted with Godot's constructor of the declared type, or
//! dropped (a dropped key takes its value with it). The rules and the values are the
//! [`game`](crate::game) module's; here the conversions that allocate are made too: a
//! `NodePath` parsed from a `String` and its text, `Array` from a packed array and a packed
//! array from an `Array`, whose elements go through Godot's lax conversions (`String::to_int`,
//! `String::to_float`, the text of any value). Keys that collide after conversion merge as
//! [`Dictionary`](crate::owned::Dictionary) merges repeated keys: first position, last value. A
//! class- or script-typed container is typed `EncodedObjectAsID` without full objects, as
//! Godot types it.
//!
//! What cannot be known outside the game is an
//! [`ErrorKind::GameDependent`](crate::ErrorKind::GameDependent) error at the typed container's
//! offset: the text of an
//! object (it holds the instance id the game gives it) where an `Array` becomes a
//! `PackedStringArray`; the `RID` of a full object whose class allocates one when it is made;
//! a full object carrying a script in a script-typed container (whether its script inherits
//! the container's depends on the game's scripts). The one class whose object crashes Godot
//! 4.6 when an `Array[RID]` converts it (`Tree`) is reported the same way.
//!
//! Costs: O(1) per element, plus the conversion's own (O(length) for text, O(elements) for a
//! packed array, O(size) for the text of a value); a converted key is hashed again (O(size of
//! the key)). No recursion.

mod convert;
mod node_path_text;
mod number_text;
mod packed;
mod stringify;
mod text_numbers;

use alloc::string::String;

use super::{Object, Variant};
use crate::view::container_type::Admission;
use crate::wire::classes;
use crate::{ElementType, VariantType};

/// What the game holds cannot be known from the bytes
/// ([`ErrorKind::GameDependent`](crate::ErrorKind::GameDependent)); the caller places the error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameDependent;

/// The class Godot's decoder gives an object container without full objects.
const ENCODED_OBJECT: &str = "EncodedObjectAsID";

/// A container's declared type as the game holds it: without full objects, Godot types every
/// object container (by class, by script, or builtin `Object`) `EncodedObjectAsID`.
pub(crate) fn game_type(declared: ElementType<String>, allow_objects: bool) -> ElementType<String> {
    match declared {
        ElementType::ClassName(_)
        | ElementType::Script(_)
        | ElementType::Builtin(VariantType::Object)
            if !allow_objects =>
        {
            ElementType::ClassName(String::from(ENCODED_OBJECT))
        }
        other => other,
    }
}

/// What the game stores for an element (or key) of a typed container.
pub(crate) enum Admitted {
    /// The element, as it is.
    Kept(Variant),
    /// The element, converted.
    Converted(Variant),
    /// Nothing: the game drops it.
    Dropped,
}

/// What the game stores for `value`, an element (or key) of a container declared `declared`
/// (as [`game_type`] gives it).
pub(crate) fn admit(
    declared: &ElementType<String>,
    value: Variant,
    allow_objects: bool,
) -> Result<Admitted, GameDependent> {
    Ok(match declared.admission(value.variant_type(), allow_objects) {
        Admission::Keep => Admitted::Kept(value),
        Admission::Convert => match declared {
            ElementType::Builtin(to) => Admitted::Converted(convert::convert(value, *to)?),
            _ => Admitted::Dropped,
        },
        Admission::ClassCheck if keeps_object(declared, &value)? => Admitted::Kept(value),
        _ => Admitted::Dropped,
    })
}

/// Whether a class- or script-typed container keeps an object, with full objects allowed.
fn keeps_object(declared: &ElementType<String>, value: &Variant) -> Result<bool, GameDependent> {
    let class = match value {
        Variant::Object(Object::Full(full)) => {
            let (class, properties) = (&full.class, &full.properties);
            if let ElementType::Script(_) = declared {
                // Kept only if its script inherits the container's: the game's scripts decide.
                let script = properties.iter().rev().find(|(name, _)| name == "script");
                if script.is_some_and(|(_, script)| !script.is_nil()) {
                    return Err(GameDependent);
                }
                return Ok(false);
            }
            class.as_str()
        }
        Variant::Object(Object::Id(_)) => ENCODED_OBJECT,
        _ => return Ok(true),
    };
    Ok(match declared {
        ElementType::ClassName(name) => classes::inherits(class.as_bytes(), name.as_bytes()),
        // An instance id carries no script.
        _ => false,
    })
}
