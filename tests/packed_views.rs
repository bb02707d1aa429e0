//! Zero-copy packed-array views are correct at every alignment: real engine bytes of every
//! fixed-size packed type (Godot 4 `Packed*Array`, Godot 3 `Pool*Array`), and crafted Godot 4
//! double-precision vector arrays, are placed at the 8 possible offsets from an 8-aligned
//! address. At each offset `len`, `get`, `iter`, `as_le_slice`, `to_vec` and `raw_bytes` agree
//! with each other and with the values Godot reported (floats compared as bit patterns), and
//! `as_slice` is `Some` exactly when the host is little-endian and the element data is aligned
//! for the element type.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::corpus;

use std::fmt::Debug;

use gdvariant::math::{Color, Precision, Vector2, Vector3, Vector4};
use gdvariant::packed::PackedElement;
use gdvariant::{Options, VariantRef, Version, packed::Packed, packed::PackedReals};
use serde_json::Value;

// ------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------

/// The `expected` field of a manifest case.
fn expected_json(version: Version, name: &str) -> Value {
    common::manifest_case(version, name)["expected"].clone()
}

/// One expected element as a list of component bit patterns (integers as their i64 bits).
fn component_bits(v: &Value) -> Vec<u64> {
    match v {
        Value::Number(n) => vec![n.as_i64().unwrap() as u64],
        Value::String(hex) => vec![u64::from_str_radix(hex, 16).unwrap()],
        Value::Array(parts) => parts.iter().flat_map(component_bits).collect(),
        other => panic!("unexpected element {other}"),
    }
}

/// The expected elements of a manifest case: `v` (integers), `f32` or `f64` (bit patterns).
fn expected_elements(version: Version, name: &str) -> Vec<Vec<u64>> {
    let expected = expected_json(version, name);
    let list = ["v", "f32", "f64"]
        .iter()
        .find_map(|field| expected.get(*field))
        .unwrap_or_else(|| panic!("{name}: no elements in {expected}"));
    list.as_array().unwrap().iter().map(component_bits).collect()
}

/// A buffer holding `bytes` at `k` bytes past an 8-aligned address; returns the buffer and the
/// index where `bytes` starts. The rest of the buffer is filled with 0xEE.
fn place(bytes: &[u8], k: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0xEE_u8; bytes.len() + 16];
    let base = (8 - buf.as_ptr() as usize % 8) % 8;
    let start = base + k;
    buf[start..start + bytes.len()].copy_from_slice(bytes);
    assert_eq!((buf.as_ptr() as usize + start) % 8, k);
    (buf, start)
}

/// Bit patterns of a decoded element and of its little-endian form, written per type.
trait Bits: PackedElement + Debug {
    fn bits(&self) -> Vec<u64>;
    fn le_bits(le: &Self::Le) -> Vec<u64>;
}

impl Bits for i32 {
    fn bits(&self) -> Vec<u64> {
        vec![i64::from(*self) as u64]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![i64::from(le.get()) as u64]
    }
}

impl Bits for i64 {
    fn bits(&self) -> Vec<u64> {
        vec![*self as u64]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![le.get() as u64]
    }
}

impl Bits for f32 {
    fn bits(&self) -> Vec<u64> {
        vec![u64::from(self.to_bits())]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![u64::from(le.get().to_bits())]
    }
}

impl Bits for f64 {
    fn bits(&self) -> Vec<u64> {
        vec![self.to_bits()]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![le.get().to_bits()]
    }
}

impl Bits for Vector2<f32> {
    fn bits(&self) -> Vec<u64> {
        [self.x, self.y].iter().map(|c| u64::from(c.to_bits())).collect()
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        [le.x, le.y].iter().map(|c| u64::from(c.get().to_bits())).collect()
    }
}

impl Bits for Vector3<f32> {
    fn bits(&self) -> Vec<u64> {
        [self.x, self.y, self.z].iter().map(|c| u64::from(c.to_bits())).collect()
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        [le.x, le.y, le.z].iter().map(|c| u64::from(c.get().to_bits())).collect()
    }
}

impl Bits for Vector4<f32> {
    fn bits(&self) -> Vec<u64> {
        [self.x, self.y, self.z, self.w].iter().map(|c| u64::from(c.to_bits())).collect()
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        [le.x, le.y, le.z, le.w].iter().map(|c| u64::from(c.get().to_bits())).collect()
    }
}

impl Bits for Color<f32> {
    fn bits(&self) -> Vec<u64> {
        [self.r, self.g, self.b, self.a].iter().map(|c| u64::from(c.to_bits())).collect()
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        [le.r, le.g, le.b, le.a].iter().map(|c| u64::from(c.get().to_bits())).collect()
    }
}

impl Bits for Vector2<f64> {
    fn bits(&self) -> Vec<u64> {
        vec![self.x.to_bits(), self.y.to_bits()]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![le.x.get().to_bits(), le.y.get().to_bits()]
    }
}

impl Bits for Vector3<f64> {
    fn bits(&self) -> Vec<u64> {
        vec![self.x.to_bits(), self.y.to_bits(), self.z.to_bits()]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        vec![le.x.get().to_bits(), le.y.get().to_bits(), le.z.get().to_bits()]
    }
}

impl Bits for Vector4<f64> {
    fn bits(&self) -> Vec<u64> {
        vec![self.x.to_bits(), self.y.to_bits(), self.z.to_bits(), self.w.to_bits()]
    }
    fn le_bits(le: &Self::Le) -> Vec<u64> {
        [le.x, le.y, le.z, le.w].iter().map(|c| c.get().to_bits()).collect()
    }
}

/// Pulls the packed view of type `T` out of a parsed value.
type Extract<T> = for<'a> fn(VariantRef<'a>) -> Option<Packed<'a, T>>;

/// Checks every view of the packed array that `bytes` encodes, placed at all 8 offsets from an
/// 8-aligned address; returns at how many offsets `as_slice` was `Some`.
fn check_at_every_offset<T: Bits>(
    what: &str,
    version: Version,
    bytes: &[u8],
    expected: &[Vec<u64>],
    extract: Extract<T>,
) -> usize {
    let element_size = size_of::<T>();
    assert_eq!(bytes.len(), 8 + expected.len() * element_size, "{what}: test data size");
    let mut native = 0;
    for k in 0..8 {
        let what = format!("{what} at +{k}");
        let (buf, start) = place(bytes, k);
        let input = &buf[start..start + bytes.len()];
        let options = Options::new(version);
        gdvariant::validate(input, options).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(gdvariant::parse_prefix(input, options).unwrap().len(), bytes.len());
        let value = gdvariant::parse(input, options).unwrap();
        let packed = extract(value).unwrap_or_else(|| panic!("{what}: got {value:?}"));
        let data_addr = input.as_ptr() as usize + 8;

        // len, is_empty, raw_bytes.
        assert_eq!(packed.len(), expected.len(), "{what}");
        assert_eq!(packed.is_empty(), expected.is_empty(), "{what}");
        assert_eq!(packed.raw_bytes(), &input[8..], "{what}");
        assert_eq!(packed.raw_bytes().as_ptr() as usize, data_addr, "{what}: zero-copy");

        // get(i) against Godot's values; past the end is None.
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(&packed.get(i).unwrap().bits(), want, "{what}: get({i})");
        }
        assert!(packed.get(expected.len()).is_none(), "{what}");
        assert!(packed.get(usize::MAX).is_none(), "{what}");

        // iter, forwards and backwards, and its exact size.
        let iterated: Vec<Vec<u64>> = packed.iter().map(|v| v.bits()).collect();
        assert_eq!(iterated, expected, "{what}: iter");
        assert_eq!(packed.iter().len(), expected.len(), "{what}");
        let mut reversed: Vec<Vec<u64>> = packed.iter().rev().map(|v| v.bits()).collect();
        reversed.reverse();
        assert_eq!(reversed, expected, "{what}: iter().rev()");

        // as_le_slice: always there, over the same bytes, decoded independently.
        let le = packed.as_le_slice();
        assert_eq!(le.len(), expected.len(), "{what}");
        assert_eq!(le.as_ptr() as usize, data_addr, "{what}: as_le_slice is zero-copy");
        let le_values: Vec<Vec<u64>> = le.iter().map(T::le_bits).collect();
        assert_eq!(le_values, expected, "{what}: as_le_slice");

        // as_slice: Some exactly on a little-endian host with aligned element data.
        let aligned = data_addr % align_of::<T>() == 0;
        let slice = packed.as_slice();
        assert_eq!(
            slice.is_some(),
            cfg!(target_endian = "little") && aligned,
            "{what}: as_slice at address {data_addr:#x}, align {}",
            align_of::<T>()
        );
        if let Some(slice) = slice {
            native += 1;
            assert_eq!(slice.as_ptr() as usize, data_addr, "{what}: as_slice is zero-copy");
            let values: Vec<Vec<u64>> = slice.iter().map(|v| v.bits()).collect();
            assert_eq!(values, iterated, "{what}: as_slice");
        }

        // to_vec: the same values, whichever path it takes.
        let owned: Vec<Vec<u64>> = packed.to_vec().iter().map(|v| v.bits()).collect();
        assert_eq!(owned, iterated, "{what}: to_vec");
    }
    native
}

/// How many of the 8 offsets give an aligned element address for `T` (on a little-endian host).
fn expected_native<T>() -> usize {
    if cfg!(target_endian = "little") { 8 / align_of::<T>() } else { 0 }
}

fn corpus_case<T: Bits>(version: Version, name: &str, extract: Extract<T>) {
    let bytes = corpus(version, name);
    let expected = expected_elements(version, name);
    let native = check_at_every_offset(name, version, &bytes, &expected, extract);
    assert_eq!(native, expected_native::<T>(), "{name}");
}

// Extractors (non-capturing closures coerce to the higher-ranked fn pointer).

/// Functions that take the packed array of one kind out of a value.
macro_rules! extractors {
    ($($name:ident: $t:ty = $pattern:pat => $binding:ident,)*) => {$(
        fn $name(v: VariantRef<'_>) -> Option<Packed<'_, $t>> {
            match v {
                $pattern => Some($binding),
                _ => None,
            }
        }
    )*};
}

extractors! {
    int32: i32 = VariantRef::PackedInt32Array(p) => p,
    int64: i64 = VariantRef::PackedInt64Array(p) => p,
    float32: f32 = VariantRef::PackedFloat32Array(p) => p,
    float64: f64 = VariantRef::PackedFloat64Array(p) => p,
    color: Color<f32> = VariantRef::PackedColorArray(p) => p,
    vector2_f32: Vector2<f32> = VariantRef::PackedVector2Array(PackedReals::Single(p)) => p,
    vector3_f32: Vector3<f32> = VariantRef::PackedVector3Array(PackedReals::Single(p)) => p,
    vector4_f32: Vector4<f32> = VariantRef::PackedVector4Array(PackedReals::Single(p)) => p,
    vector2_f64: Vector2<f64> = VariantRef::PackedVector2Array(PackedReals::Double(p)) => p,
    vector3_f64: Vector3<f64> = VariantRef::PackedVector3Array(PackedReals::Double(p)) => p,
    vector4_f64: Vector4<f64> = VariantRef::PackedVector4Array(PackedReals::Double(p)) => p,
}

// ------------------------------------------------------------------------------------------
// Real corpus data
// ------------------------------------------------------------------------------------------

#[test]
fn godot4_packed_arrays_at_every_alignment() {
    let g4 = Version::Godot4;
    corpus_case(g4, "packed_int32_basic", int32);
    corpus_case(g4, "packed_int32_empty", int32);
    corpus_case(g4, "packed_int64_basic", int64);
    corpus_case(g4, "packed_int64_empty", int64);
    corpus_case(g4, "packed_float32_basic", float32);
    corpus_case(g4, "packed_float32_special", float32);
    corpus_case(g4, "packed_float64_basic", float64);
    corpus_case(g4, "packed_float64_empty", float64);
    corpus_case(g4, "packed_vector2_basic", vector2_f32);
    corpus_case(g4, "packed_vector3_basic", vector3_f32);
    corpus_case(g4, "packed_vector4_basic", vector4_f32);
    corpus_case(g4, "packed_vector4_empty", vector4_f32);
    corpus_case(g4, "packed_color_basic", color);
}

#[test]
fn godot3_pool_arrays_at_every_alignment() {
    let g3 = Version::Godot3;
    corpus_case(g3, "pool_int_basic", int32);
    corpus_case(g3, "pool_int_empty", int32);
    corpus_case(g3, "pool_int_truncated", int32);
    corpus_case(g3, "pool_real_basic", float32);
    corpus_case(g3, "pool_real_special", float32);
    corpus_case(g3, "pool_real_empty", float32);
    corpus_case(g3, "pool_vector2_basic", vector2_f32);
    corpus_case(g3, "pool_vector2_empty", vector2_f32);
    corpus_case(g3, "pool_vector3_basic", vector3_f32);
    corpus_case(g3, "pool_vector3_empty", vector3_f32);
    corpus_case(g3, "pool_color_basic", color);
    corpus_case(g3, "pool_color_empty", color);
}

/// The large real arrays, at two alignments: the views cover all elements with no copy.
#[test]
fn large_real_packed_arrays() {
    for (version, name) in [
        (Version::Godot4, "large_packed_float32_100000"),
        (Version::Godot3, "large_pool_real_100000"),
    ] {
        let bytes = corpus(version, name);
        for k in [0, 2] {
            let (buf, start) = place(&bytes, k);
            let input = &buf[start..start + bytes.len()];
            let packed = float32(gdvariant::parse(input, Options::new(version)).unwrap()).unwrap();
            assert_eq!(packed.len(), 100_000);
            assert_eq!(packed.as_slice().is_some(), cfg!(target_endian = "little") && k == 0);
            // Under Miri, the passes over all 100,000 elements are left out (minutes each); the
            // sampled reads below still check every view against the bytes.
            if !cfg!(miri) {
                let iterated: Vec<u32> = packed.iter().map(f32::to_bits).collect();
                let le: Vec<u32> = packed.as_le_slice().iter().map(|v| v.get().to_bits()).collect();
                assert_eq!(iterated, le);
                let owned: Vec<u32> = packed.to_vec().iter().map(|v| v.to_bits()).collect();
                assert_eq!(owned, iterated);
            }
            for (i, chunk) in input[8..].chunks_exact(4).enumerate().step_by(997) {
                let want = u32::from_le_bytes(chunk.try_into().unwrap());
                assert_eq!(packed.get(i).unwrap().to_bits(), want, "{name}[{i}]");
                assert_eq!(packed.as_le_slice()[i].get().to_bits(), want, "{name}[{i}]");
                if let Some(native) = packed.as_slice() {
                    assert_eq!(native[i].to_bits(), want, "{name}[{i}]");
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Crafted double-precision vectors (Godot 4 header bit 16)
// ------------------------------------------------------------------------------------------

/// A Godot 4 packed array: header, count, then the components as little-endian f64.
fn f64_packed(header: u32, components: &[f64], per_element: usize) -> Vec<u8> {
    let mut bytes = header.to_le_bytes().to_vec();
    bytes.extend(((components.len() / per_element) as u32).to_le_bytes());
    for c in components {
        bytes.extend(c.to_le_bytes());
    }
    bytes
}

fn elements_bits(components: &[f64], per_element: usize) -> Vec<Vec<u64>> {
    components.chunks(per_element).map(|c| c.iter().map(|v| v.to_bits()).collect()).collect()
}

const F64_VALUES: [f64; 12] = [
    1.5,
    -2.25,
    f64::MAX,
    f64::MIN_POSITIVE,
    -0.0,
    0.1,
    f64::INFINITY,
    f64::NEG_INFINITY,
    5e-324,
    -1e300,
    std::f64::consts::PI,
    16_777_217.0,
];

#[test]
fn double_precision_vector_arrays_at_every_alignment() {
    let mut values = F64_VALUES.to_vec();
    // A NaN with a payload must come through bit for bit.
    values[5] = f64::from_bits(0x7FF8_0000_0000_0123);
    let cases: [(u32, usize); 3] = [(0x0001_0023, 2), (0x0001_0024, 3), (0x0001_0026, 4)];
    for (header, per) in cases {
        let bytes = f64_packed(header, &values, per);
        let expected = elements_bits(&values, per);
        let what = format!("header {header:#010x}");
        let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
        let (precision, native) = match value {
            VariantRef::PackedVector2Array(p) => (
                p.precision(),
                check_at_every_offset(&what, Version::Godot4, &bytes, &expected, vector2_f64),
            ),
            VariantRef::PackedVector3Array(p) => (
                p.precision(),
                check_at_every_offset(&what, Version::Godot4, &bytes, &expected, vector3_f64),
            ),
            VariantRef::PackedVector4Array(p) => (
                p.precision(),
                check_at_every_offset(&what, Version::Godot4, &bytes, &expected, vector4_f64),
            ),
            other => panic!("{what}: {other:?}"),
        };
        assert_eq!(precision, Precision::Double, "{what}");
        assert_eq!(native, expected_native::<f64>(), "{what}: only offset 0 is 8-aligned");
    }
    // Without bit 16 the same count reads f32 components: half the bytes, the rest trailing.
    let bytes = f64_packed(0x23, &values, 2);
    let VariantRef::PackedVector2Array(p) = gdvariant::parse(&bytes, Options::godot4()).unwrap()
    else {
        panic!()
    };
    assert_eq!((p.precision(), p.len()), (Precision::Single, 6));
    assert_eq!(gdvariant::parse_prefix(&bytes, Options::godot4()).unwrap().len(), 8 + 6 * 8);
    // An f64 array whose count claims one element too many is refused.
    let mut short = f64_packed(0x0001_0023, &values, 2);
    short[4] = 7;
    assert_eq!(
        gdvariant::validate(&short, Options::godot4()).unwrap_err().kind(),
        gdvariant::ErrorKind::BadCount { count: 7 }
    );
}

/// Godot 3 ignores header bit 16 on pool vector arrays: still f32.
#[test]
fn godot3_ignores_bit_16_on_pool_vectors() {
    for (name, per) in [("pool_vector2_basic", 2), ("pool_vector3_basic", 3)] {
        let mut bytes = corpus(Version::Godot3, name);
        bytes[2] |= 1;
        let expected = expected_elements(Version::Godot3, name);
        let value = gdvariant::parse(&bytes, Options::godot3()).unwrap();
        let native = match (value, per) {
            (VariantRef::PackedVector2Array(p), 2) => {
                assert_eq!(p.precision(), Precision::Single);
                check_at_every_offset(name, Version::Godot3, &bytes, &expected, vector2_f32)
            }
            (VariantRef::PackedVector3Array(p), 3) => {
                assert_eq!(p.precision(), Precision::Single);
                check_at_every_offset(name, Version::Godot3, &bytes, &expected, vector3_f32)
            }
            (other, _) => panic!("{name}: {other:?}"),
        };
        assert_eq!(native, expected_native::<f32>());
    }
}
