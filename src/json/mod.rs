//! JSON, written straight from a [`VariantRef`](crate::VariantRef) (feature `alloc`), in two forms.
//!
//! * **Lossless** ([`write_json`], [`to_json`]): every Godot type tagged, every real exact, so
//!   that a value can be archived, diffed, or read back without losing a type (`1` and `1.0`
//!   stay apart, a `Vector2` stays a `Vector2`). Its schema is below.
//! * **Natural** ([`write_natural_json`], [`to_natural_json`]): the JSON a person or a data
//!   tool expects (`{"tick": 7, "pos": {"x": 1.5, "y": -2.0}}`): dictionaries as objects,
//!   numbers as numbers, math values as small objects. Types that JSON cannot tell apart are
//!   merged, so it cannot be read back into the same value. Its form is at the end.
//!
//! Both are written by one [`Cursor`](crate::view::Cursor) pass over the value: O(n), whatever the
//! nesting, no recursion (one small heap entry per open container). What is checked: the walk
//! reads each element's structure as container iteration does, and each string's text as it is
//! written; a malformed value stops the output with the [`Error`](crate::Error) and its byte
//! offset (run [`validate`](crate::validate) first to refuse such input before writing
//! anything).
//!
//! # Lossless JSON
//!
//! Every Godot value is written so that its type and every bit of its content can be read back:
//! JSON's own values where they say everything (`null`, booleans, integers, finite floats,
//! `String`s, untyped arrays), and an object tagged with `"type"` everywhere else. Type names
//! are Godot 4's (`type_string()`), whichever version the bytes come from.
//!
//! | Godot value | JSON |
//! | --- | --- |
//! | `null` | `null` |
//! | `bool` | `true`, `false` |
//! | `int` | an integer: `42`, `-9223372036854775808` |
//! | `float` | a number that always has a `.` or an exponent, the shortest decimal that reads back to the same `f64`: `1.0`, `0.1`, `-0.0`, `1e20`; not finite: `{"type": "float", "value": "inf"}` (`"-inf"`, `"nan"`, see below) |
//! | `String` | a string |
//! | `StringName` | `{"type": "StringName", "value": "name"}` |
//! | untyped `Array` | an array |
//! | typed `Array` | `{"type": "Array", "element_type": T, "value": [...]}` |
//! | `Dictionary` | `{"type": "Dictionary", "entries": [[key, value], ...]}` in wire order, with `"key_type": T` and `"value_type": T` when typed; a key that repeats on the wire is written each time (Godot keeps the first position and the last value) |
//! | `Vector2`, `Rect2`, `Vector3`, `Transform2D`, `Vector4`, `Plane`, `Quaternion`, `AABB`, `Basis`, `Transform3D`, `Projection` | `{"type": "Vector2", "value": [1.0, 2.0]}`: the reals in wire order (see [`math`](crate::math): `Basis` by rows, `Projection` by columns), with `"precision": "double"` before `"value"` when the wire holds f64 reals (Godot 4 double builds) |
//! | `Vector2i`, `Rect2i`, `Vector3i`, `Vector4i` | `{"type": "Vector2i", "value": [1, 2]}` |
//! | `Color` | `{"type": "Color", "value": [r, g, b, a]}` |
//! | `NodePath` | `{"type": "NodePath", "absolute": true, "names": [...], "subnames": [...]}` |
//! | `RID` | `{"type": "RID", "value": 7}`; Godot 3 writes no id: `{"type": "RID"}` |
//! | `Object` | `{"type": "Object", "value": null}` (a null object), `{"type": "Object", "id": 5}` (an instance id, its 64 bits unsigned), `{"type": "Object", "class": "Resource", "properties": [["name", value], ...]}` |
//! | `Callable` | `{"type": "Callable"}` (Godot writes nothing else) |
//! | `Signal` | `{"type": "Signal", "name": "pressed", "object_id": 5}` |
//! | `PackedByteArray` | `{"type": "PackedByteArray", "value": "00ff10"}` (hex) |
//! | other packed arrays | `{"type": "PackedInt32Array", "value": [...]}`: numbers, strings, or arrays of reals for the vector and color arrays (with `"precision": "double"` as above) |
//!
//! A typed container's `T` is Godot 4's name of a builtin type (`"int"`, `"Vector2"`), or
//! `{"class": "Node"}` or `{"script": "res://player.gd"}`.
//!
//! **Reals** inside math values, colors and packed arrays are written in their wire precision:
//! an f32 as the shortest decimal that reads back to the same `f32` (`0.1`, not
//! `0.10000000149011612`), an f64 as the shortest that reads back to the same `f64`. A real
//! that is not finite is written as a string in its place: `"inf"`, `"-inf"`, `"nan"` for the
//! default quiet NaN (bits `7fc00000` as f32, `7ff8000000000000` as f64), and
//! `"nan:7fc00001"` (every bit, in hex) for any other NaN. `float` values are `f64`s (Godot
//! widens an f32 on the wire), and follow the same rule inside their tagged form.
//!
//! **Strings** are the text the game reads (after Godot's BOM and NUL handling; a Godot 3 string
//! spelled with overlong forms, `E0 81 B4` for `t`, is written as the text it spells). Godot 3
//! accepts some strings that are not Unicode (surrogates, code points past U+10FFFF); such a
//! string is written as `{"type": "String", "bytes": "<hex>"}` (likewise for `StringName`), and
//! as `{"bytes": "<hex>"}` where a plain JSON string stands for a name (NodePath names, property
//! and class names, `PackedStringArray` elements), the hex being the text's bytes as received.
//!
//! ```
//! use gdvariant::Options;
//!
//! // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
//! let bytes = include_bytes!("../../corpus/godot4/dict_order.bin");
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! assert_eq!(
//!     gdvariant::json::to_json(value)?,
//!     r#"{"type":"Dictionary","entries":[["z",1],["a",2],["m",3]]}"#
//! );
//! # Ok::<(), gdvariant::Error>(())
//! ```
//!
//! # Natural JSON
//!
//! | Godot value | JSON |
//! | --- | --- |
//! | `null`, `bool`, `int` | `null`, `true`, `42` |
//! | `float` | a number, the shortest decimal that reads back to the same `f64` (`1.0`, `0.1`); not finite: the strings `"NaN"`, `"Infinity"`, `"-Infinity"` (as protobuf's JSON mapping writes them) |
//! | `String`, `StringName` | a string |
//! | `NodePath` | its text as a string: `"/root/Main:position"` |
//! | `Array` (typed or not) | an array |
//! | `Dictionary` | an object, entries in wire order (keys below) |
//! | math values | an object of named components ([`math_fields`]): `Vector2` `{"x":1.0,"y":2.0}`, `Rect2` `{"position":{..},"size":{..}}`, `Transform2D` `{"x":{..},"y":{..},"origin":{..}}`, `Plane` `{"normal":{..},"d":..}`, `Basis` its axes (columns) `{"x":{..},"y":{..},"z":{..}}`, `Transform3D` `{"basis":{..},"origin":{..}}`, `Projection` its columns `x` to `w`, `Color` `{"r":..,"g":..,"b":..,"a":..}`; reals in their wire precision (an f32 as the shortest decimal that reads back to the same `f32`), not finite as for `float`; integer vectors with integer components |
//! | `RID` | its id (Godot 3, which writes none: `null`) |
//! | `Object` | `null`; an instance id: `{"id":5}`; a full object: `{"class":"Node","properties":{"name":value,..}}` |
//! | `Callable` | `null` (Godot writes nothing else) |
//! | `Signal` | `{"name":"pressed","object_id":5}` |
//! | `PackedByteArray` | a string of standard, padded base64 |
//! | other packed arrays | arrays of numbers or strings; vector and color arrays arrays of objects as above |
//!
//! **Keys.** A `String` or `StringName` key is its text; an `int`, `float`, `bool` or `null`
//! key is the text of its JSON (`"5"`, `"1.5"`, `"true"`, `"null"`); a `NodePath` key its text;
//! any other key (a vector, an array, a dictionary) the text of its **lossless** JSON
//! (`"{\"type\":\"Vector2\",\"value\":[1.0,2.0]}"`). So `1` and `"1"` give the same name, and a
//! key that repeats on the wire (Godot keeps its first place and last value) is written each
//! time: most JSON readers keep the last, as Godot does.
//!
//! **Strings** are the game's text; a Godot 3 string that is not Unicode (surrogates, code
//! points past U+10FFFF) has each such code point replaced by U+FFFD.
//!
//! ```
//! use gdvariant::Options;
//!
//! // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
//! let bytes = include_bytes!("../../corpus/godot4/dict_nested.bin");
//! let value = gdvariant::parse(bytes, Options::godot4())?;
//! assert_eq!(
//!     gdvariant::json::to_natural_json(value)?,
//!     r#"{"a":{"b":{"c":[1,2,{"d":null}]}},"e":[]}"#
//! );
//! # Ok::<(), gdvariant::Error>(())
//! ```

mod count;
mod error;
mod escape;
mod lossless;
mod natural;
mod number;
mod shape;

pub use error::JsonError;
pub use escape::write_escaped;
pub use lossless::{to_json, write_json};
pub use natural::{to_natural_json, write_natural_json};
pub use shape::{Field, FieldKind, math_fields};
