//! Variant types and their wire ids in each Godot version.
//!
//! [`VariantType`] names a type once, whatever its id: Godot 3's `Dictionary` is id 18 and
//! Godot 4's is id 27, and both are [`VariantType::Dictionary`]. The tables below follow
//! `Variant::Type` of Godot 3.x and of Godot 4.3+ (4.0 to 4.2 lack only id 38).

use crate::wire::options::Version;

/// A Variant type, in the union of Godot 3 and Godot 4 (Godot 4 names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(::serde::Serialize, ::serde::Deserialize))]
#[non_exhaustive]
pub enum VariantType {
    /// `null`.
    Nil,
    /// `bool`.
    Bool,
    /// `int`: 32-bit on the wire when it fits, else 64-bit.
    Int,
    /// `float` (Godot 3: `real`): f32 on the wire when exact, else f64.
    Float,
    /// `String`.
    String,
    /// `Vector2`.
    Vector2,
    /// `Vector2i` (Godot 4).
    Vector2i,
    /// `Rect2`.
    Rect2,
    /// `Rect2i` (Godot 4).
    Rect2i,
    /// `Vector3`.
    Vector3,
    /// `Vector3i` (Godot 4).
    Vector3i,
    /// `Transform2D`.
    Transform2D,
    /// `Vector4` (Godot 4).
    Vector4,
    /// `Vector4i` (Godot 4).
    Vector4i,
    /// `Plane`.
    Plane,
    /// `Quaternion` (Godot 3: `Quat`).
    Quaternion,
    /// `AABB`.
    Aabb,
    /// `Basis`.
    Basis,
    /// `Transform3D` (Godot 3: `Transform`).
    Transform3D,
    /// `Projection` (Godot 4).
    Projection,
    /// `Color`.
    Color,
    /// `StringName` (Godot 4).
    StringName,
    /// `NodePath`.
    NodePath,
    /// `RID`.
    Rid,
    /// `Object`.
    Object,
    /// `Callable` (Godot 4).
    Callable,
    /// `Signal` (Godot 4).
    Signal,
    /// `Dictionary`.
    Dictionary,
    /// `Array`.
    Array,
    /// `PackedByteArray` (Godot 3: `PoolByteArray`).
    PackedByteArray,
    /// `PackedInt32Array` (Godot 3: `PoolIntArray`).
    PackedInt32Array,
    /// `PackedInt64Array` (Godot 4).
    PackedInt64Array,
    /// `PackedFloat32Array` (Godot 3: `PoolRealArray`).
    PackedFloat32Array,
    /// `PackedFloat64Array` (Godot 4).
    PackedFloat64Array,
    /// `PackedStringArray` (Godot 3: `PoolStringArray`).
    PackedStringArray,
    /// `PackedVector2Array` (Godot 3: `PoolVector2Array`).
    PackedVector2Array,
    /// `PackedVector3Array` (Godot 3: `PoolVector3Array`).
    PackedVector3Array,
    /// `PackedColorArray` (Godot 3: `PoolColorArray`).
    PackedColorArray,
    /// `PackedVector4Array` (Godot 4.3+).
    PackedVector4Array,
}

use VariantType as T;

/// Godot 3.x `Variant::Type`, indexed by wire id (VARIANT_MAX = 27).
const GODOT3: [VariantType; 27] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Rect2,
    T::Vector3,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
];

/// Godot 4.3+ `Variant::Type`, indexed by wire id (VARIANT_MAX = 39).
const GODOT4: [VariantType; 39] = [
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Vector2i,
    T::Rect2,
    T::Rect2i,
    T::Vector3,
    T::Vector3i,
    T::Transform2D,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Projection,
    T::Color,
    T::StringName,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Callable,
    T::Signal,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedInt64Array,
    T::PackedFloat32Array,
    T::PackedFloat64Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
    T::PackedVector4Array,
];

/// Godot 3 wire ids, indexed by Godot 4 id (the inverse of [`GODOT3`]).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // evaluated at compile time
const GODOT3_IDS: [Option<u8>; 39] = {
    let mut ids = [None; 39];
    let mut id = 0;
    while id < GODOT3.len() {
        ids[GODOT3[id] as usize] = Some(id as u8);
        id += 1;
    }
    ids
};

const fn table(version: Version) -> &'static [VariantType] {
    match version {
        Version::Godot3 => &GODOT3,
        Version::Godot4 => &GODOT4,
    }
}

impl VariantType {
    /// The type with wire id `id` in `version`, or `None` when `id` is at or past that version's
    /// `VARIANT_MAX` (27 for Godot 3, 39 for Godot 4).
    pub fn from_id(version: Version, id: u32) -> Option<VariantType> {
        let index = usize::try_from(id).ok()?;
        table(version).get(index).copied()
    }

    /// The wire id of this type in `version`, or `None` when that version has no such type. O(1).
    pub fn id(self, version: Version) -> Option<u8> {
        // The enum is declared in Godot 4's order, so its discriminant is the Godot 4 id.
        let godot4 = self as u8;
        match version {
            Version::Godot4 => Some(godot4),
            Version::Godot3 => GODOT3_IDS.get(usize::from(godot4)).copied().flatten(),
        }
    }

    /// The type's name as `version` spells it (`typeof` / `type_string`), such as `"PoolIntArray"`
    /// in Godot 3 and `"PackedInt32Array"` in Godot 4.
    pub const fn name(self, version: Version) -> &'static str {
        if let Version::Godot3 = version {
            match self {
                T::Float => return "float",
                T::Quaternion => return "Quat",
                T::Transform3D => return "Transform",
                T::Rid => return "RID",
                T::PackedByteArray => return "PoolByteArray",
                T::PackedInt32Array => return "PoolIntArray",
                T::PackedFloat32Array => return "PoolRealArray",
                T::PackedStringArray => return "PoolStringArray",
                T::PackedVector2Array => return "PoolVector2Array",
                T::PackedVector3Array => return "PoolVector3Array",
                T::PackedColorArray => return "PoolColorArray",
                _ => {}
            }
        }
        match self {
            T::Nil => "Nil",
            T::Bool => "bool",
            T::Int => "int",
            T::Float => "float",
            T::String => "String",
            T::Vector2 => "Vector2",
            T::Vector2i => "Vector2i",
            T::Rect2 => "Rect2",
            T::Rect2i => "Rect2i",
            T::Vector3 => "Vector3",
            T::Vector3i => "Vector3i",
            T::Transform2D => "Transform2D",
            T::Vector4 => "Vector4",
            T::Vector4i => "Vector4i",
            T::Plane => "Plane",
            T::Quaternion => "Quaternion",
            T::Aabb => "AABB",
            T::Basis => "Basis",
            T::Transform3D => "Transform3D",
            T::Projection => "Projection",
            T::Color => "Color",
            T::StringName => "StringName",
            T::NodePath => "NodePath",
            T::Rid => "RID",
            T::Object => "Object",
            T::Callable => "Callable",
            T::Signal => "Signal",
            T::Dictionary => "Dictionary",
            T::Array => "Array",
            T::PackedByteArray => "PackedByteArray",
            T::PackedInt32Array => "PackedInt32Array",
            T::PackedInt64Array => "PackedInt64Array",
            T::PackedFloat32Array => "PackedFloat32Array",
            T::PackedFloat64Array => "PackedFloat64Array",
            T::PackedStringArray => "PackedStringArray",
            T::PackedVector2Array => "PackedVector2Array",
            T::PackedVector3Array => "PackedVector3Array",
            T::PackedColorArray => "PackedColorArray",
            T::PackedVector4Array => "PackedVector4Array",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_in_both_versions() {
        for version in [Version::Godot3, Version::Godot4] {
            for id in 0..=255u32 {
                if let Some(t) = VariantType::from_id(version, id) {
                    assert_eq!(t.id(version).map(u32::from), Some(id));
                }
            }
        }
        // Every type has its Godot 4 id, and the Godot 3 ids are exactly the Godot 3 table.
        assert!(GODOT4.iter().enumerate().all(|(id, t)| t.id(Version::Godot4) == Some(id as u8)));
        let in_godot3 = GODOT4.iter().filter(|t| t.id(Version::Godot3).is_some()).count();
        assert_eq!(in_godot3, GODOT3.len());
        assert_eq!(VariantType::from_id(Version::Godot3, 27), None);
        assert_eq!(VariantType::from_id(Version::Godot4, 39), None);
        assert_eq!(VariantType::from_id(Version::Godot4, 38), Some(T::PackedVector4Array));
        assert_eq!(T::Dictionary.id(Version::Godot3), Some(18));
        assert_eq!(T::Dictionary.id(Version::Godot4), Some(27));
        assert_eq!(T::Vector4.id(Version::Godot3), None);
    }
}
