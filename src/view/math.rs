//! Math types: vectors, rectangles, transforms, planes, quaternions, bounding boxes, bases,
//! projections and colors.
//!
//! Each struct is generic over its component type and `#[repr(C)]`, with fields in wire order,
//! so one definition serves three purposes:
//!
//! * decoded values: `Vector2<f32>`, `Vector2<f64>`, `Vector2<i32>` (Godot's `Vector2i`);
//! * native zero-copy slices of packed arrays (`&[Vector2<f32>]`, see [`Packed`](crate::packed::Packed));
//! * zero-copy little-endian views with alignment 1 (`Vector2<zerocopy::little_endian::F32>`).
//!
//! Real-valued types come out of a [`VariantRef`](crate::VariantRef) as [`Reals`]: single
//! precision unless header bit 16 is set (Godot 4 double builds), read lazily in O(1).
//! Godot 3 always uses single precision and ignores the bit; `Color` is single precision in both
//! versions.

use core::marker::PhantomData;

use zerocopy::little_endian::{F32, F64};
use zerocopy::{FromBytes, FromZeros, Immutable, KnownLayout};

use crate::wire::read::widen_f32;

/// Defines a generic `#[repr(C)]` math struct and its `map`. Each field is declared with how
/// `map` reaches its components: `T` (a component), `nested` (a math struct) or `array` (an array
/// of math structs).
macro_rules! math_struct {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident : $how:ident $fty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, FromBytes, KnownLayout, Immutable)]
        #[cfg_attr(feature = "serde", derive(::serde::Serialize, ::serde::Deserialize))]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        #[repr(C)]
        pub struct $name<T> {
            $($(#[$fmeta])* pub $field: $fty,)*
        }

        impl<T> $name<T> {
            /// Applies `f` to every component, in wire order.
            pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> $name<U> {
                $name { $($field: math_struct!(@map $how, self.$field, f),)* }
            }

            /// Calls `f` on every component, in wire order.
            #[allow(dead_code)]
            pub(crate) fn for_each_component(self, mut f: impl FnMut(T)) {
                let _ = self.map(|c| f(c));
            }
        }
    };
    (@map component, $value:expr, $f:ident) => { $f($value) };
    (@map nested, $value:expr, $f:ident) => { $value.map(&mut $f) };
    (@map array, $value:expr, $f:ident) => { $value.map(|v| v.map(&mut $f)) };
}

math_struct!(
    /// `Vector2` (`Vector2<i32>` is `Vector2i`).
    Vector2 {
        /// x.
        x: component T,
        /// y.
        y: component T,
    }
);

math_struct!(
    /// `Vector3` (`Vector3<i32>` is `Vector3i`).
    Vector3 {
        /// x.
        x: component T,
        /// y.
        y: component T,
        /// z.
        z: component T,
    }
);

math_struct!(
    /// `Vector4` (`Vector4<i32>` is `Vector4i`).
    Vector4 {
        /// x.
        x: component T,
        /// y.
        y: component T,
        /// z.
        z: component T,
        /// w.
        w: component T,
    }
);

math_struct!(
    /// `Rect2` (`Rect2<i32>` is `Rect2i`).
    Rect2 {
        /// Top-left corner.
        position: nested Vector2<T>,
        /// Width and height.
        size: nested Vector2<T>,
    }
);

math_struct!(
    /// `Transform2D`: the x and y axes (columns), then the origin.
    Transform2D {
        /// The x axis.
        x: nested Vector2<T>,
        /// The y axis.
        y: nested Vector2<T>,
        /// The translation.
        origin: nested Vector2<T>,
    }
);

math_struct!(
    /// `Plane`: the normal, then the distance from the origin.
    Plane {
        /// The normal.
        normal: nested Vector3<T>,
        /// The distance from the origin along the normal.
        d: component T,
    }
);

math_struct!(
    /// `Quaternion` (Godot 3: `Quat`).
    Quaternion {
        /// x.
        x: component T,
        /// y.
        y: component T,
        /// z.
        z: component T,
        /// w.
        w: component T,
    }
);

math_struct!(
    /// `AABB`: position, then size.
    Aabb {
        /// The minimum corner.
        position: nested Vector3<T>,
        /// The extent.
        size: nested Vector3<T>,
    }
);

math_struct!(
    /// `Basis`, stored as Godot stores it: three **rows**. `rows[0]` is `(x.x, y.x, z.x)` in
    /// terms of the column vectors `Basis.x`, `Basis.y`, `Basis.z`; see [`Basis::column`].
    Basis {
        /// The rows.
        rows: array [Vector3<T>; 3],
    }
);

impl<T: Copy> Basis<T> {
    /// Column `index` (0 = `Basis.x`, 1 = `Basis.y`, 2 = `Basis.z`), or `None` past 2.
    pub fn column(&self, index: usize) -> Option<Vector3<T>> {
        let pick = |row: &Vector3<T>| match index {
            0 => Some(row.x),
            1 => Some(row.y),
            2 => Some(row.z),
            _ => None,
        };
        let [r0, r1, r2] = &self.rows;
        Some(Vector3 { x: pick(r0)?, y: pick(r1)?, z: pick(r2)? })
    }
}

math_struct!(
    /// `Transform3D` (Godot 3: `Transform`): the basis rows, then the origin.
    Transform3D {
        /// The rotation and scale.
        basis: nested Basis<T>,
        /// The translation.
        origin: nested Vector3<T>,
    }
);

math_struct!(
    /// `Projection`: four **columns** x, y, z, w.
    Projection {
        /// The columns.
        columns: array [Vector4<T>; 4],
    }
);

math_struct!(
    /// `Color`: red, green, blue, alpha; always f32 on the wire.
    Color {
        /// Red.
        r: component T,
        /// Green.
        g: component T,
        /// Blue.
        b: component T,
        /// Alpha.
        a: component T,
    }
);

/// A real-valued math type as [`Reals`] reads it: implemented for the f64 form of each type
/// (`Vector2<f64>`, `Basis<f64>`, ...).
pub trait RealValue: Copy + sealed::Sealed {
    /// The same type with f32 components.
    type Single: Copy;
    /// Number of reals on the wire.
    const COMPONENTS: usize;
    /// Decodes `COMPONENTS` little-endian f32 values (zeros if `raw` has another length, which
    /// [`Reals`] rules out).
    #[doc(hidden)]
    fn read_single(raw: &[u8]) -> Self::Single;
    /// Decodes `COMPONENTS` little-endian f64 values (zeros if `raw` has another length).
    #[doc(hidden)]
    fn read_double(raw: &[u8]) -> Self;
    /// Widens every component exactly (NaNs become quiet, keeping their payload).
    #[doc(hidden)]
    fn widen(single: Self::Single) -> Self;
    /// Widens every component bit for bit (a signalling NaN stays signalling), so that it
    /// narrows back to the same `f32` bits.
    #[doc(hidden)]
    fn widen_exact(single: Self::Single) -> Self;
    /// Makes every NaN component quiet, as the engine's conversion of an f64 to its `f32`
    /// `real_t` does.
    #[doc(hidden)]
    fn quiet(self) -> Self;
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! real_value {
    ($($name:ident = $n:literal),* $(,)?) => {$(
        impl sealed::Sealed for $name<f64> {}
        impl RealValue for $name<f64> {
            type Single = $name<f32>;
            const COMPONENTS: usize = $n;
            fn read_single(raw: &[u8]) -> $name<f32> {
                $name::<F32>::read_from_bytes(raw).unwrap_or_else(|_| FromZeros::new_zeroed()).map(|c| c.get())
            }
            fn read_double(raw: &[u8]) -> Self {
                $name::<F64>::read_from_bytes(raw).unwrap_or_else(|_| FromZeros::new_zeroed()).map(|c| c.get())
            }
            fn widen(single: $name<f32>) -> Self {
                single.map(|c| widen_f32(c.to_bits()))
            }
            fn widen_exact(single: $name<f32>) -> Self {
                single.map(crate::wire::exact_float::widen_exact)
            }
            fn quiet(self) -> Self {
                self.map(crate::wire::exact_float::quiet)
            }
        }
    )*};
}

real_value!(
    Vector2 = 2,
    Vector3 = 3,
    Vector4 = 4,
    Rect2 = 4,
    Transform2D = 6,
    Plane = 4,
    Quaternion = 4,
    Aabb = 6,
    Basis = 9,
    Transform3D = 12,
    Projection = 16,
);

/// Whether reals on the wire are f32 or f64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    /// 4-byte IEEE-754 binary32 (every official build).
    Single,
    /// 8-byte IEEE-754 binary64 (Godot 4 `precision=double` builds, header bit 16).
    Double,
}

impl Precision {
    /// Bytes per real.
    pub const fn size(self) -> usize {
        match self {
            Precision::Single => 4,
            Precision::Double => 8,
        }
    }
}

/// A real-valued math value, read lazily from the buffer. `V` is its f64 form, such as
/// `Vector2<f64>`. Every method is O(1).
#[derive(Clone, Copy, PartialEq)]
pub struct Reals<'a, V> {
    raw: &'a [u8],
    precision: Precision,
    value: PhantomData<V>,
}

impl<'a, V: RealValue> Reals<'a, V> {
    /// `raw` must hold exactly `V::COMPONENTS` reals of `precision`.
    pub(crate) fn new(raw: &'a [u8], precision: Precision) -> Self {
        Reals { raw, precision, value: PhantomData }
    }

    /// The value with f64 components (f32 ones widened exactly).
    pub fn get(&self) -> V {
        match self.precision {
            Precision::Single => V::widen(V::read_single(self.raw)),
            Precision::Double => V::read_double(self.raw),
        }
    }

    /// The value with its f32 components bit for bit, when the wire holds single precision.
    pub fn get_f32(&self) -> Option<V::Single> {
        match self.precision {
            Precision::Single => Some(V::read_single(self.raw)),
            Precision::Double => None,
        }
    }

    /// The wire precision.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// The payload bytes (after the header), exactly as on the wire.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }
}

impl<V: RealValue + core::fmt::Debug> core::fmt::Debug for Reals<'_, V> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.precision {
            Precision::Single => write!(f, "{:?}", self.get()),
            Precision::Double => write!(f, "{:?} (f64)", self.get()),
        }
    }
}
