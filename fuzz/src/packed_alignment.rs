//! `packed_alignment`: packed arrays read the same at every address.
//!
//! The first input byte picks a version and a fixed-size packed type (Godot 4 vectors also in
//! their f64 form, header bit 16); the rest becomes the elements, raw bits as they come (NaN
//! payloads, negative zeros, extremes). The encoded array is placed at each of the 8 offsets
//! from an 8-aligned address, and at each: it validates; `len`, `get`, `iter` both ways,
//! `to_vec`, the little-endian view and the native slice give the components the bytes hold,
//! bit for bit (computed here from the raw little-endian words, independently of the library);
//! the native slice is there exactly when the host is little-endian and the element data is
//! aligned for the type; every view is zero-copy over the input.

use gdvariant::math::{Color, Vector2, Vector3, Vector4};
use gdvariant::packed::PackedElement;
use gdvariant::{Options, VariantRef, VariantType, Version, packed::Packed, packed::PackedReals};

/// Most elements generated per input.
const MAX_ELEMENTS: usize = 64;

/// Component bits of an element, widened to u64, in wire order.
pub trait Bits: PackedElement {
    /// Bytes of one component on the wire.
    const COMPONENT: usize;
    /// The element's components as bits.
    fn bits(&self) -> Vec<u64>;
}

macro_rules! scalar_bits {
    ($($t:ty => $size:expr, |$v:ident| $bits:expr);* $(;)?) => {$(
        impl Bits for $t {
            const COMPONENT: usize = $size;
            fn bits(&self) -> Vec<u64> {
                let $v = *self;
                vec![$bits]
            }
        }
    )*};
}
scalar_bits!(
    i32 => 4, |v| u64::from(v as u32);
    i64 => 8, |v| v as u64;
    f32 => 4, |v| u64::from(v.to_bits());
    f64 => 8, |v| v.to_bits();
);

macro_rules! vector_bits {
    ($($name:ident<$t:ty> => $size:expr, |$c:ident| $bits:expr);* $(;)?) => {$(
        impl Bits for $name<$t> {
            const COMPONENT: usize = $size;
            fn bits(&self) -> Vec<u64> {
                let mut out = Vec::new();
                let _ = self.map(|$c: $t| out.push($bits));
                out
            }
        }
    )*};
}
vector_bits!(
    Vector2<f32> => 4, |c| u64::from(c.to_bits());
    Vector3<f32> => 4, |c| u64::from(c.to_bits());
    Vector4<f32> => 4, |c| u64::from(c.to_bits());
    Color<f32> => 4, |c| u64::from(c.to_bits());
    Vector2<f64> => 8, |c| c.to_bits();
    Vector3<f64> => 8, |c| c.to_bits();
    Vector4<f64> => 8, |c| c.to_bits();
);

/// Pulls the packed view of element type `T` out of a parsed value.
type Extract<T> = for<'a> fn(VariantRef<'a>) -> Option<Packed<'a, T>>;

/// The target.
pub fn check(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else { return };
    use VariantType as T;
    let g3 = Version::Godot3;
    let g4 = Version::Godot4;
    match selector % 17 {
        0 => run::<i32>(g3, T::PackedInt32Array, false, rest, |v| match v {
            VariantRef::PackedInt32Array(p) => Some(p),
            _ => None,
        }),
        1 => run::<f32>(g3, T::PackedFloat32Array, false, rest, |v| match v {
            VariantRef::PackedFloat32Array(p) => Some(p),
            _ => None,
        }),
        2 => run::<Vector2<f32>>(g3, T::PackedVector2Array, false, rest, single_v2),
        3 => run::<Vector3<f32>>(g3, T::PackedVector3Array, false, rest, single_v3),
        4 => run::<Color<f32>>(g3, T::PackedColorArray, false, rest, colors),
        5 => run::<i32>(g4, T::PackedInt32Array, false, rest, |v| match v {
            VariantRef::PackedInt32Array(p) => Some(p),
            _ => None,
        }),
        6 => run::<i64>(g4, T::PackedInt64Array, false, rest, |v| match v {
            VariantRef::PackedInt64Array(p) => Some(p),
            _ => None,
        }),
        7 => run::<f32>(g4, T::PackedFloat32Array, false, rest, |v| match v {
            VariantRef::PackedFloat32Array(p) => Some(p),
            _ => None,
        }),
        8 => run::<f64>(g4, T::PackedFloat64Array, false, rest, |v| match v {
            VariantRef::PackedFloat64Array(p) => Some(p),
            _ => None,
        }),
        9 => run::<Vector2<f32>>(g4, T::PackedVector2Array, false, rest, single_v2),
        10 => run::<Vector3<f32>>(g4, T::PackedVector3Array, false, rest, single_v3),
        11 => run::<Color<f32>>(g4, T::PackedColorArray, false, rest, colors),
        12 => run::<Vector4<f32>>(g4, T::PackedVector4Array, false, rest, |v| match v {
            VariantRef::PackedVector4Array(PackedReals::Single(p)) => Some(p),
            _ => None,
        }),
        13 => run::<Vector2<f64>>(g4, T::PackedVector2Array, true, rest, |v| match v {
            VariantRef::PackedVector2Array(PackedReals::Double(p)) => Some(p),
            _ => None,
        }),
        14 => run::<Vector3<f64>>(g4, T::PackedVector3Array, true, rest, |v| match v {
            VariantRef::PackedVector3Array(PackedReals::Double(p)) => Some(p),
            _ => None,
        }),
        15 => run::<Vector4<f64>>(g4, T::PackedVector4Array, true, rest, |v| match v {
            VariantRef::PackedVector4Array(PackedReals::Double(p)) => Some(p),
            _ => None,
        }),
        _ => bytes(g4, rest),
    }
}

fn single_v2(v: VariantRef<'_>) -> Option<Packed<'_, Vector2<f32>>> {
    match v {
        VariantRef::PackedVector2Array(PackedReals::Single(p)) => Some(p),
        _ => None,
    }
}

fn single_v3(v: VariantRef<'_>) -> Option<Packed<'_, Vector3<f32>>> {
    match v {
        VariantRef::PackedVector3Array(PackedReals::Single(p)) => Some(p),
        _ => None,
    }
}

fn colors(v: VariantRef<'_>) -> Option<Packed<'_, Color<f32>>> {
    match v {
        VariantRef::PackedColorArray(p) => Some(p),
        _ => None,
    }
}

/// Header, count and the elements taken from `raw`; returns the encoding and the expected
/// component bits of each element.
fn encode<T: Bits>(
    version: Version,
    ty: VariantType,
    double: bool,
    raw: &[u8],
) -> (Vec<u8>, Vec<Vec<u64>>) {
    let size = size_of::<T>();
    let count = (raw.len() / size).min(MAX_ELEMENTS);
    let id = ty.id(version).expect("a type of this version");
    let header = u32::from(id) | if double { 1 << 16 } else { 0 };
    let mut bytes = Vec::with_capacity(8 + count * size);
    bytes.extend_from_slice(&header.to_le_bytes());
    bytes.extend_from_slice(&(count as u32).to_le_bytes());
    bytes.extend_from_slice(&raw[..count * size]);
    let expected = raw[..count * size]
        .chunks_exact(size)
        .map(|element| {
            element
                .chunks_exact(T::COMPONENT)
                .map(|c| match *c {
                    [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
                    [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
                    _ => unreachable!("components are 4 or 8 bytes"),
                })
                .collect()
        })
        .collect();
    (bytes, expected)
}

/// `bytes` copied to `k` bytes past an 8-aligned address; returns the buffer and the start.
fn place(bytes: &[u8], k: usize) -> (Vec<u8>, usize) {
    let mut buf = vec![0u8; bytes.len() + 16];
    let start = (8 - buf.as_ptr() as usize % 8) % 8 + k;
    buf[start..start + bytes.len()].copy_from_slice(bytes);
    (buf, start)
}

fn run<T: Bits>(version: Version, ty: VariantType, double: bool, raw: &[u8], extract: Extract<T>) {
    let (bytes, expected) = encode::<T>(version, ty, double, raw);
    for k in 0..8 {
        let (buf, start) = place(&bytes, k);
        let input = &buf[start..start + bytes.len()];
        let options = Options::new(version);
        let what = format!("{} at +{k}", ty.name(version));
        if let Err(e) = gdvariant::validate(input, options) {
            panic!("{what}: {e}");
        }
        let value = gdvariant::parse(input, options).expect("validated");
        let packed = extract(value).unwrap_or_else(|| panic!("{what}: parsed as {value:?}"));
        let data_addr = input.as_ptr() as usize + 8;

        assert_eq!(packed.len(), expected.len(), "{what}: len");
        assert_eq!(packed.raw_bytes(), &input[8..], "{what}: raw bytes");
        assert_eq!(packed.raw_bytes().as_ptr() as usize, data_addr, "{what}: zero-copy");
        for (i, want) in expected.iter().enumerate() {
            assert_eq!(&packed.get(i).expect("in range").bits(), want, "{what}: get({i})");
        }
        assert!(packed.get(expected.len()).is_none(), "{what}: get past the end");
        let forwards: Vec<Vec<u64>> = packed.iter().map(|v| v.bits()).collect();
        assert_eq!(forwards, expected, "{what}: iter");
        let mut backwards: Vec<Vec<u64>> = packed.iter().rev().map(|v| v.bits()).collect();
        backwards.reverse();
        assert_eq!(backwards, expected, "{what}: iter().rev()");
        let owned: Vec<Vec<u64>> = packed.to_vec().iter().map(Bits::bits).collect();
        assert_eq!(owned, expected, "{what}: to_vec");

        let le = packed.as_le_slice();
        assert_eq!(le.as_ptr() as usize, data_addr, "{what}: as_le_slice is zero-copy");
        let from_le: Vec<Vec<u64>> = le.iter().map(|e| T::from_le(*e).bits()).collect();
        assert_eq!(from_le, expected, "{what}: as_le_slice");

        #[allow(clippy::manual_is_multiple_of)] // the library's MSRV predates is_multiple_of
        let aligned = data_addr % align_of::<T>() == 0;
        let native = packed.as_slice();
        assert_eq!(
            native.is_some(),
            cfg!(target_endian = "little") && aligned,
            "{what}: as_slice at address {data_addr:#x}"
        );
        if let Some(native) = native {
            assert_eq!(native.as_ptr() as usize, data_addr, "{what}: as_slice is zero-copy");
            let values: Vec<Vec<u64>> = native.iter().map(Bits::bits).collect();
            assert_eq!(values, expected, "{what}: as_slice");
        }
    }
}

/// `PackedByteArray`: the bytes themselves, at every offset, with and without padding.
fn bytes(version: Version, raw: &[u8]) {
    let raw = &raw[..raw.len().min(MAX_ELEMENTS)];
    let id = VariantType::PackedByteArray.id(version).expect("a type of this version");
    let mut encoded = Vec::new();
    encoded.extend_from_slice(&u32::from(id).to_le_bytes());
    encoded.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    encoded.extend_from_slice(raw);
    let unpadded = encoded.len();
    encoded.resize(unpadded.next_multiple_of(4), 0);
    for k in 0..8 {
        for len in [unpadded, encoded.len()] {
            let (buf, start) = place(&encoded[..len], k);
            let input = &buf[start..start + len];
            let options = Options::new(version);
            match gdvariant::parse(input, options) {
                Ok(VariantRef::PackedByteArray(got)) => {
                    assert_eq!(got, raw, "PackedByteArray at +{k}");
                    assert_eq!(got.as_ptr() as usize, input.as_ptr() as usize + 8);
                }
                other => panic!("PackedByteArray at +{k}, {len} bytes: {other:?}"),
            }
        }
    }
}
