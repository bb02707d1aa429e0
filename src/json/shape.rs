//! The named fields of math values in the natural form: which wire component each name holds.
//! Shared by the natural JSON writer and by exporters that turn math values into records
//! (`pos.x`), so that both name the same parts the same way. Static tables; O(1) to look up.

use crate::VariantType;

/// One named part of a math value's natural form: a component, or a group of named parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The name: `x`, `position`, `origin`, `r`, ...
    pub name: &'static str,
    /// What the name holds.
    pub kind: FieldKind,
}

/// What a [`Field`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// The component at this index of the value's components in wire order.
    Component(usize),
    /// A group of named parts (a vector inside a rectangle or a transform).
    Group(&'static [Field]),
}

const fn c(name: &'static str, index: usize) -> Field {
    Field { name, kind: FieldKind::Component(index) }
}

const fn g(name: &'static str, fields: &'static [Field]) -> Field {
    Field { name, kind: FieldKind::Group(fields) }
}

const XY: [Field; 2] = [c("x", 0), c("y", 1)];
const XYZ: [Field; 3] = [c("x", 0), c("y", 1), c("z", 2)];
const XYZW: [Field; 4] = [c("x", 0), c("y", 1), c("z", 2), c("w", 3)];
const RECT2: [Field; 2] = [g("position", &XY), g("size", &[c("x", 2), c("y", 3)])];
const TRANSFORM2D: [Field; 3] =
    [g("x", &XY), g("y", &[c("x", 2), c("y", 3)]), g("origin", &[c("x", 4), c("y", 5)])];
const PLANE: [Field; 2] = [g("normal", &XYZ), c("d", 3)];
const AABB: [Field; 2] = [g("position", &XYZ), g("size", &[c("x", 3), c("y", 4), c("z", 5)])];
/// The wire holds a basis by rows; its natural form gives the axes (columns), as GDScript's
/// `basis.x`, `basis.y`, `basis.z` do.
const BASIS: [Field; 3] = [
    g("x", &[c("x", 0), c("y", 3), c("z", 6)]),
    g("y", &[c("x", 1), c("y", 4), c("z", 7)]),
    g("z", &[c("x", 2), c("y", 5), c("z", 8)]),
];
const TRANSFORM3D: [Field; 2] =
    [g("basis", &BASIS), g("origin", &[c("x", 9), c("y", 10), c("z", 11)])];
/// The wire holds a projection by columns, which are GDScript's `projection.x` ... `.w`.
const PROJECTION: [Field; 4] = [
    g("x", &XYZW),
    g("y", &[c("x", 4), c("y", 5), c("z", 6), c("w", 7)]),
    g("z", &[c("x", 8), c("y", 9), c("z", 10), c("w", 11)]),
    g("w", &[c("x", 12), c("y", 13), c("z", 14), c("w", 15)]),
];
const COLOR: [Field; 4] = [c("r", 0), c("g", 1), c("b", 2), c("a", 3)];

/// The named fields of a math type's natural form (`Vector2`: `x`, `y`; `Rect2`: `position`
/// and `size`, each with `x` and `y`; `Color`: `r`, `g`, `b`, `a`; `Basis`: the axes `x`, `y`,
/// `z`, each a vector), or `None` for a type that is not a math type. Integer vectors have the
/// fields of their real counterparts.
pub fn math_fields(ty: VariantType) -> Option<&'static [Field]> {
    use VariantType as T;
    Some(match ty {
        T::Vector2 | T::Vector2i => &XY,
        T::Vector3 | T::Vector3i => &XYZ,
        T::Vector4 | T::Vector4i | T::Quaternion => &XYZW,
        T::Rect2 | T::Rect2i => &RECT2,
        T::Transform2D => &TRANSFORM2D,
        T::Plane => &PLANE,
        T::Aabb => &AABB,
        T::Basis => &BASIS,
        T::Transform3D => &TRANSFORM3D,
        T::Projection => &PROJECTION,
        T::Color => &COLOR,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every component of every math type is named exactly once.
    #[test]
    fn each_component_is_named_once() {
        fn collect(fields: &[Field], out: &mut alloc::vec::Vec<usize>) {
            for field in fields {
                match field.kind {
                    FieldKind::Component(i) => out.push(i),
                    FieldKind::Group(inner) => collect(inner, out),
                }
            }
        }
        for (ty, n) in [
            (VariantType::Vector2, 2),
            (VariantType::Rect2, 4),
            (VariantType::Transform2D, 6),
            (VariantType::Plane, 4),
            (VariantType::Aabb, 6),
            (VariantType::Basis, 9),
            (VariantType::Transform3D, 12),
            (VariantType::Projection, 16),
            (VariantType::Color, 4),
            (VariantType::Vector4i, 4),
        ] {
            let mut seen = alloc::vec::Vec::new();
            collect(math_fields(ty).unwrap(), &mut seen);
            seen.sort_unstable();
            assert_eq!(seen, (0..n).collect::<alloc::vec::Vec<_>>(), "{ty:?}");
        }
        assert_eq!(math_fields(VariantType::Int), None);
    }
}
