//! Godot's constructor of a typed container's declared type, applied to an owned element of a
//! type it converts (see [`ContainerType::admission`](crate::view::ContainerType::admission)). Reals are
//! narrowed to `f32`, computed as a single-precision build computes them, and widened back
//! exactly. O(1), except for text (O(length)) and packed arrays (O(elements)).

use alloc::boxed::Box;

use super::GameDependent;
use super::node_path_text::{node_path_from_text, node_path_text};
use super::packed::{array_from_packed, packed_from_array};
use crate::owned::{Object, Variant};
use crate::view::game::color::{color_from_hex, color_from_text};
use crate::view::game::has_runtime_rid;
use crate::view::game::math::*;
use crate::wire::exact_float::{narrow_exact, widen_exact};
use crate::wire::types::VariantType;

/// The value Godot's constructor of `to` makes of `value`; a value of a type it does not
/// convert comes back as it is.
pub(super) fn convert(value: Variant, to: VariantType) -> Result<Variant, GameDependent> {
    use Variant as V;
    use VariantType as T;
    let narrow = narrow_exact;
    let widen = widen_exact;
    let to_int = |c: f64| i32_from_real(narrow(c));
    let to_real = |c: i32| widen(real_from_i32(c));
    Ok(match (to, value) {
        (T::Bool, V::Int(i)) => V::Bool(bool_from_int(i)),
        (T::Bool, V::Float(f)) => V::Bool(bool_from_float(f)),
        (T::Int, V::Bool(b)) => V::Int(i64::from(b)),
        (T::Int, V::Float(f)) => V::Int(int_from_float(f)),
        (T::Float, V::Bool(b)) => V::Float(if b { 1.0 } else { 0.0 }),
        (T::Float, V::Int(i)) => V::Float(float_from_int(i)),
        (T::String, V::StringName(s)) => V::String(s),
        (T::String, V::NodePath(path)) => V::String(node_path_text(&path).into()),
        (T::StringName, V::String(s)) => V::StringName(s),
        (T::NodePath, V::String(s)) => V::from(node_path_from_text(&s.to_string_lossy())),
        (T::Vector2, V::Vector2i(v)) => V::Vector2(v.map(to_real)),
        (T::Vector2i, V::Vector2(v)) => V::Vector2i(v.map(to_int)),
        (T::Rect2, V::Rect2i(v)) => V::from(v.map(to_real)),
        (T::Rect2i, V::Rect2(v)) => V::Rect2i(v.map(to_int)),
        (T::Vector3, V::Vector3i(v)) => V::Vector3(v.map(to_real)),
        (T::Vector3i, V::Vector3(v)) => V::Vector3i(v.map(to_int)),
        (T::Vector4, V::Vector4i(v)) => V::from(v.map(to_real)),
        (T::Vector4i, V::Vector4(v)) => V::Vector4i(v.map(to_int)),
        (T::Transform2D, V::Transform3D(t)) => {
            V::Transform2D(Box::new(transform2d_from_3d(t.map(narrow)).map(widen)))
        }
        (T::Quaternion, V::Basis(b)) => V::from(quaternion_from_basis(b.map(narrow)).map(widen)),
        (T::Basis, V::Quaternion(q)) => {
            V::Basis(Box::new(basis_from_quaternion(q.map(narrow)).map(widen)))
        }
        (T::Transform3D, V::Transform2D(t)) => {
            V::Transform3D(Box::new(transform3d_from_2d(t.map(narrow)).map(widen)))
        }
        (T::Transform3D, V::Quaternion(q)) => {
            let basis = basis_from_quaternion(q.map(narrow));
            V::Transform3D(Box::new(transform3d_from_basis(basis).map(widen)))
        }
        (T::Transform3D, V::Basis(b)) => {
            V::Transform3D(Box::new(transform3d_from_basis(b.map(narrow)).map(widen)))
        }
        (T::Transform3D, V::Projection(p)) => {
            V::Transform3D(Box::new(transform3d_from_projection(p.map(narrow)).map(widen)))
        }
        (T::Projection, V::Transform3D(t)) => {
            V::Projection(Box::new(projection_from_transform3d(t.map(narrow)).map(widen)))
        }
        // `operator int()` is 32 bits: the low 32 bits of the int.
        (T::Color, V::Int(i)) => V::Color(color_from_hex(i as u32)),
        (T::Color, V::String(s)) => V::Color(color_from_text(&s.to_string_lossy())),
        (T::Rid, V::Object(Object::Full(full))) => {
            if has_runtime_rid(full.class.as_bytes()) {
                return Err(GameDependent);
            }
            V::Rid(0)
        }
        // A null object, or an instance id (an EncodedObjectAsID, which has no RID).
        (T::Rid, V::Object(_)) => V::Rid(0),
        (T::Array, packed) => array_from_packed(packed),
        (packed, V::Array(array)) if crate::view::container_type::is_packed(packed) => {
            packed_from_array(&array, packed)?
        }
        (_, other) => other,
    })
}
