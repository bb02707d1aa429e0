//! `Array` to a packed array and back, as Godot 4.6's constructors make them. Into a packed
//! array, each element goes through Godot's lax conversion to the element type (`Variant`'s
//! `operator T`), which never fails: what does not convert becomes zero (black for colours).
//! O(elements, plus their text for strings).

use alloc::vec::Vec;

use super::GameDependent;
use super::stringify::stringify;
use super::text_numbers::{to_float, to_int};
use crate::owned::{Array, GdString, Variant};
use crate::view::game::color::{color_from_hex, color_from_text};
use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::wire::exact_float::widen_exact;
use crate::wire::read::widen_f32;
use crate::wire::types::VariantType;
use crate::wire::work;

/// An untyped `Array` of a packed array's elements, each a `Variant` of its own type (bytes and
/// 32-bit ints as `int`, 32-bit floats as `float`).
pub(super) fn array_from_packed(packed: Variant) -> Variant {
    use Variant as V;
    work::add(packed_len(&packed));
    let elements: Vec<Variant> = match packed {
        V::PackedByteArray(x) => x.into_iter().map(|b| V::Int(i64::from(b))).collect(),
        V::PackedInt32Array(x) => x.into_iter().map(|i| V::Int(i64::from(i))).collect(),
        V::PackedInt64Array(x) => x.into_iter().map(V::Int).collect(),
        V::PackedFloat32Array(x) => {
            x.into_iter().map(|f| V::Float(widen_f32(f.to_bits()))).collect()
        }
        V::PackedFloat64Array(x) => x.into_iter().map(V::Float).collect(),
        V::PackedStringArray(x) => x.into_iter().map(V::String).collect(),
        V::PackedVector2Array(x) => x.into_iter().map(V::Vector2).collect(),
        V::PackedVector3Array(x) => x.into_iter().map(V::Vector3).collect(),
        V::PackedVector4Array(x) => x.into_iter().map(V::from).collect(),
        V::PackedColorArray(x) => x.into_iter().map(V::Color).collect(),
        other => return other,
    };
    V::from(elements)
}

/// The packed array of type `to` made from `array`'s elements.
pub(super) fn packed_from_array(array: &Array, to: VariantType) -> Result<Variant, GameDependent> {
    use Variant as V;
    use VariantType as T;
    work::add(array.len());
    let items = array.iter();
    Ok(match to {
        T::PackedByteArray => V::PackedByteArray(items.map(lax_byte).collect()),
        T::PackedInt32Array => V::PackedInt32Array(items.map(lax_i32).collect()),
        T::PackedInt64Array => V::PackedInt64Array(items.map(lax_i64).collect()),
        T::PackedFloat32Array => V::PackedFloat32Array(items.map(lax_f32).collect()),
        T::PackedFloat64Array => V::PackedFloat64Array(items.map(lax_f64).collect()),
        T::PackedStringArray => {
            let strings = items.map(|item| stringify(item).map(GdString::from));
            V::PackedStringArray(strings.collect::<Result<Vec<GdString>, _>>()?)
        }
        T::PackedVector2Array => V::PackedVector2Array(
            items.map(lax_vector).map(|v| Vector2 { x: v.x, y: v.y }.map(widen_exact)).collect(),
        ),
        T::PackedVector3Array => V::PackedVector3Array(
            items
                .map(lax_vector)
                .map(|v| Vector3 { x: v.x, y: v.y, z: v.z }.map(widen_exact))
                .collect(),
        ),
        T::PackedVector4Array => {
            V::PackedVector4Array(items.map(|e| lax_vector(e).map(widen_exact)).collect())
        }
        T::PackedColorArray => V::PackedColorArray(items.map(lax_color).collect()),
        _ => V::from(array.clone()),
    })
}

/// `Variant`'s lax `operator uint8_t`: `bool` 0/1, an `int`'s low 8 bits, a `float` through
/// an unsigned 32-bit saturating conversion (negative and NaN give 0) then its low 8 bits, a
/// `String` through `String::to_int`; anything else 0.
fn lax_byte(value: &Variant) -> u8 {
    match value {
        Variant::Float(f) => *f as u32 as u8,
        other => lax_i64(other) as u8,
    }
}

/// `Variant`'s lax `operator int32_t`: as [`lax_i64`], keeping the low 32 bits, except that a
/// `float` saturates at the `i32` range.
fn lax_i32(value: &Variant) -> i32 {
    match value {
        Variant::Float(f) => *f as i32,
        other => lax_i64(other) as i32,
    }
}

/// `Variant`'s lax `operator int64_t`: `bool` 0/1, `int`, `float` truncated (saturating, NaN 0),
/// `String` through `String::to_int`; anything else 0.
fn lax_i64(value: &Variant) -> i64 {
    match value {
        Variant::Bool(b) => i64::from(*b),
        Variant::Int(i) => *i,
        Variant::Float(f) => *f as i64,
        Variant::String(s) => to_int(&s.to_string_lossy()),
        _ => 0,
    }
}

/// `Variant`'s lax `operator float`: as [`lax_f64`], rounded to single precision once (an
/// `int` straight to `f32`).
fn lax_f32(value: &Variant) -> f32 {
    match value {
        Variant::Int(i) => *i as f32,
        other => lax_f64(other) as f32,
    }
}

/// `Variant`'s lax `operator double`: `bool` 0/1, `int` rounded, `float`, `String` through
/// `String::to_float`; anything else 0.
fn lax_f64(value: &Variant) -> f64 {
    match value {
        Variant::Bool(b) => f64::from(u8::from(*b)),
        Variant::Int(i) => *i as f64,
        Variant::Float(f) => *f,
        Variant::String(s) => to_float(&s.to_string_lossy()),
        _ => 0.0,
    }
}

/// `Variant`'s lax `operator Vector4` (and, taking the first components, `Vector2` and
/// `Vector3`): the components of any vector, integer ones converted to reals, missing ones 0;
/// anything else zero.
fn lax_vector(value: &Variant) -> Vector4<f32> {
    let real = |c: f64| crate::wire::exact_float::narrow_exact(c);
    let int = |c: i32| c as f32;
    let (x, y, z, w) = match value {
        Variant::Vector2(v) => (real(v.x), real(v.y), 0.0, 0.0),
        Variant::Vector2i(v) => (int(v.x), int(v.y), 0.0, 0.0),
        Variant::Vector3(v) => (real(v.x), real(v.y), real(v.z), 0.0),
        Variant::Vector3i(v) => (int(v.x), int(v.y), int(v.z), 0.0),
        Variant::Vector4(v) => (real(v.x), real(v.y), real(v.z), real(v.w)),
        Variant::Vector4i(v) => (int(v.x), int(v.y), int(v.z), int(v.w)),
        _ => (0.0, 0.0, 0.0, 0.0),
    };
    Vector4 { x, y, z, w }
}

/// `Variant`'s lax `operator Color`: a `Color`, `Color::hex` of an `int`'s low 32 bits, a
/// `String` as `Color(String)` reads it; anything else opaque black.
fn lax_color(value: &Variant) -> Color<f32> {
    match value {
        Variant::Color(c) => *c,
        Variant::Int(i) => color_from_hex(*i as u32),
        Variant::String(s) => color_from_text(&s.to_string_lossy()),
        _ => Color { r: 0.0, g: 0.0, b: 0.0, a: 1.0 },
    }
}

/// The number of elements of a packed array (0 for anything else).
fn packed_len(value: &Variant) -> usize {
    use Variant as V;
    match value {
        V::PackedByteArray(x) => x.len(),
        V::PackedInt32Array(x) => x.len(),
        V::PackedInt64Array(x) => x.len(),
        V::PackedFloat32Array(x) => x.len(),
        V::PackedFloat64Array(x) => x.len(),
        V::PackedStringArray(x) => x.len(),
        V::PackedVector2Array(x) => x.len(),
        V::PackedVector3Array(x) => x.len(),
        V::PackedVector4Array(x) => x.len(),
        V::PackedColorArray(x) => x.len(),
        _ => 0,
    }
}
