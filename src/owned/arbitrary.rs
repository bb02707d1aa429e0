//! `arbitrary::Arbitrary` for owned values (feature `arbitrary`): values Godot round-trips, of
//! bounded depth and size. What is generated and what is avoided, and why, is documented in the
//! [module docs of `owned`](crate::owned#arbitrary-values-feature-arbitrary).
//!
//! One [`Generator`] makes one value: it keeps the options, the depth limit and a budget of
//! values, and recurses at most [`Variant::ARBITRARY_MAX_DEPTH`] levels. Costs: O(size of the
//! generated value).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use arbitrary::{Arbitrary, Result, Unstructured};

use super::key_semantics::KeyRules;
use super::{Array, Dictionary, GdString, NodePath, Object, Signal, Variant};
use crate::encoder::ENCODED_OBJECT_AS_ID;
use crate::view::math::{
    Aabb, Basis, Plane, Projection, Quaternion, RealValue, Rect2, Transform2D, Transform3D,
    Vector2, Vector3, Vector4,
};
use crate::wire::exact_float::widen_exact;
use crate::{ElementType, EncodeOptions, VariantType, Version, math::Precision};

/// Values in one generated value, at most.
const MAX_VALUES: u32 = 100;
/// Elements of a container (entries of a dictionary, properties of an object), at most.
const MAX_LEN: u32 = 8;
/// Elements of a packed array, at most.
const MAX_PACKED: usize = 16;
/// Characters of a string, at most.
const MAX_CHARS: usize = 16;
/// Names or subnames of a NodePath, at most.
const MAX_NAMES: usize = 4;

/// Every type of either version, in Godot 4's order.
fn all_types() -> impl Iterator<Item = VariantType> + Clone {
    (0..=u32::from(u8::MAX)).map_while(|id| VariantType::from_id(Version::Godot4, id))
}

/// Every type that holds no other value (objects by id do not; full objects are made by
/// [`Generator::object`]).
fn leaves() -> impl Iterator<Item = VariantType> + Clone {
    all_types().filter(|ty| !matches!(ty, VariantType::Array | VariantType::Dictionary))
}

/// Characters worth meeting often: multi-byte UTF-8 of each length, separators of NodePath
/// text, a byte order mark (harmless after the first character), the last code point.
const SPECIAL_CHARS: &[char] =
    &['é', 'ß', '日', '本', '😀', '\u{FEFF}', '\u{10FFFF}', '/', ':', '.', '%', '"', '\\', ' '];

/// `float` values at the edges of Godot's width rule: `f32`-exact or not, signed zeros,
/// infinities, subnormals and NaNs with payloads (quiet and signalling, both signs).
const SPECIAL_FLOATS: &[u64] = &[
    0x0000_0000_0000_0000, // 0.0
    0x8000_0000_0000_0000, // -0.0
    0x3FB9_9999_9999_999A, // 0.1
    0x3FE0_0000_0000_0000, // 0.5
    0x4170_0000_1000_0000, // 2^24 + 1
    0x47EF_FFFF_E000_0000, // f32::MAX
    0x7FEF_FFFF_FFFF_FFFF, // f64::MAX
    0x36A0_0000_0000_0000, // the smallest f32 subnormal
    0x0000_0000_0000_0001, // the smallest f64 subnormal
    0x7FF0_0000_0000_0000, // inf
    0xFFF0_0000_0000_0000, // -inf
    0x7FF8_0000_0000_0000, // NaN
    0xFFF8_0000_0000_0000, // -NaN
    0x7FF0_0000_0000_0001, // a signalling NaN
    0x7FF8_DEAD_BEEF_0001, // a quiet NaN with a payload
];

/// `int` values at the edges of the 32/64-bit rule.
const SPECIAL_INTS: &[i64] = &[
    0,
    -1,
    i32::MIN as i64,
    i32::MAX as i64,
    i32::MIN as i64 - 1,
    i32::MAX as i64 + 1,
    u32::MAX as i64,
    i64::MIN,
    i64::MAX,
];

impl Variant {
    /// The deepest nesting [`Variant::arbitrary_for`] generates below the value itself: a value
    /// at this depth holds no other value.
    pub const ARBITRARY_MAX_DEPTH: u16 = 6;

    /// An arbitrary value that Godot round-trips under `options`: [`encode`](crate::encode) with
    /// `options` writes it, and [`decode`](fn@crate::decode) with the same version (and
    /// `allow_objects` as `options.full_objects()`) reads back a value
    /// [`same`](Variant::same) as it. Depth is at most [`Variant::ARBITRARY_MAX_DEPTH`] (and the
    /// options' depth limit), size at most 100 values. In short (the
    /// [module docs](crate::owned#arbitrary-values-feature-arbitrary) give the reasons):
    ///
    /// * only types of `options.version()`; Godot 3: no typed containers, `Rid(0)` only, no
    ///   absolute NodePath without names and subnames;
    /// * strings without `\0` and without a leading U+FEFF (Godot cuts and strips them);
    /// * no `Object::Null` (written as `Nil`) or `Object::Id(0)` (read as null); full objects
    ///   only with `options.full_objects()`, of instantiable classes, with a Godot 4 `script`
    ///   property that is `Nil` or a `res://` path;
    /// * real components `f32`-exact unless `options.precision()` is [`Precision::Double`];
    /// * typed containers declare what Godot writes (`"EncodedObjectAsID"` for classes without
    ///   full objects) and hold matching elements; dictionary keys are distinct under the
    ///   version's key equality.
    ///
    /// ```
    /// use arbitrary::Unstructured;
    /// use gdvariant::{EncodeOptions, Options, Variant, Version};
    ///
    /// let bytes: Vec<u8> = (0..512u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    /// let options = EncodeOptions::new(Version::Godot3);
    /// let value = Variant::arbitrary_for(&mut Unstructured::new(&bytes), options)?;
    /// let encoded = gdvariant::encode(&value, options)?;
    /// assert!(gdvariant::decode(&encoded, Options::godot3())?.same(&value));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// None in practice: running out of input gives smaller values.
    pub fn arbitrary_for(u: &mut Unstructured<'_>, options: EncodeOptions) -> Result<Variant> {
        Generator::new(u, options).value(0)
    }
}

impl Array {
    /// An arbitrary array that Godot round-trips under `options`; see
    /// [`Variant::arbitrary_for`].
    ///
    /// # Errors
    /// None in practice: running out of input gives smaller values.
    pub fn arbitrary_for(u: &mut Unstructured<'_>, options: EncodeOptions) -> Result<Array> {
        let mut generator = Generator::new(u, options);
        generator.take_one();
        generator.array(0)
    }
}

impl Dictionary {
    /// An arbitrary dictionary that Godot round-trips under `options`; see
    /// [`Variant::arbitrary_for`].
    ///
    /// # Errors
    /// None in practice: running out of input gives smaller values.
    pub fn arbitrary_for(u: &mut Unstructured<'_>, options: EncodeOptions) -> Result<Dictionary> {
        let mut generator = Generator::new(u, options);
        generator.take_one();
        generator.dictionary(0)
    }
}

impl Object {
    /// An arbitrary object that Godot round-trips under `options`: an instance id (never 0),
    /// or with full objects also a full object; see [`Variant::arbitrary_for`].
    ///
    /// # Errors
    /// None in practice: running out of input gives smaller values.
    pub fn arbitrary_for(u: &mut Unstructured<'_>, options: EncodeOptions) -> Result<Object> {
        let mut generator = Generator::new(u, options);
        generator.take_one();
        generator.object(0, Typed::Any)
    }
}

impl<'a> Arbitrary<'a> for Variant {
    /// [`Variant::arbitrary_for`] with [`EncodeOptions::godot4`].
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Variant::arbitrary_for(u, EncodeOptions::godot4())
    }
}

impl<'a> Arbitrary<'a> for Array {
    /// [`Array::arbitrary_for`] with [`EncodeOptions::godot4`].
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Array::arbitrary_for(u, EncodeOptions::godot4())
    }
}

impl<'a> Arbitrary<'a> for Dictionary {
    /// [`Dictionary::arbitrary_for`] with [`EncodeOptions::godot4`].
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Dictionary::arbitrary_for(u, EncodeOptions::godot4())
    }
}

impl<'a> Arbitrary<'a> for Object {
    /// [`Object::arbitrary_for`] with [`EncodeOptions::godot4`]: an instance id.
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Object::arbitrary_for(u, EncodeOptions::godot4())
    }
}

/// A string Godot's decoder reads back unchanged: at most 16 characters, no `\0`, no leading
/// U+FEFF. Used by the derived impls of [`NodePath`] and [`Signal`].
pub(crate) fn godot_string(u: &mut Unstructured<'_>) -> Result<String> {
    let chars = u.int_in_range(0..=MAX_CHARS)?;
    let mut text = String::new();
    for _ in 0..chars {
        let c = match u.int_in_range(0u8..=3)? {
            0 | 1 => char::from(u.int_in_range(0x20u8..=0x7E)?),
            2 => *u.choose(SPECIAL_CHARS)?,
            _ => u.arbitrary::<char>()?,
        };
        if c != '\0' {
            text.push(c);
        }
    }
    let trimmed = text.trim_start_matches('\u{FEFF}');
    if trimmed.len() == text.len() { Ok(text) } else { Ok(String::from(trimmed)) }
}

/// Up to four strings of [`godot_string`]: the names or subnames of a [`NodePath`].
pub(crate) fn godot_strings(u: &mut Unstructured<'_>) -> Result<Vec<GdString>> {
    let count = u.int_in_range(0..=MAX_NAMES)?;
    (0..count).map(|_| godot_string(u).map(GdString::from)).collect()
}

/// A string value Godot `version` reads back unchanged: [`godot_string`]'s text, or in Godot 3
/// (one time in four) up to 16 code points that only Godot 3 holds (surrogates, values above
/// U+10FFFF up to `0x7FFF_FFFF`) among ASCII.
fn gd_string(u: &mut Unstructured<'_>, version: Version) -> Result<GdString> {
    if version == Version::Godot4 || !u.ratio(1u8, 4)? {
        return godot_string(u).map(GdString::from);
    }
    let count = u.int_in_range(1..=MAX_CHARS)?;
    let mut points = Vec::with_capacity(count);
    for _ in 0..count {
        points.push(match u.int_in_range(0u8..=3)? {
            0 => u.int_in_range(0xD800..=0xDFFF)?,
            1 => u.int_in_range(0x11_0000..=0x7FFF_FFFF)?,
            _ => u32::from(u.int_in_range(0x20u8..=0x7E)?),
        });
    }
    Ok(GdString::from_code_points(points).unwrap_or_default())
}

/// What a value must be to sit in a typed container.
#[derive(Clone, Copy)]
enum Typed<'t> {
    /// Anything.
    Any,
    /// A value of this type.
    Builtin(VariantType),
    /// `Nil` or an object of this class (with full objects).
    Class(&'t str),
    /// `Nil` or an object with this script (with full objects).
    Script(&'t str),
}

impl<'t> Typed<'t> {
    fn of(element_type: &'t ElementType<String>) -> Self {
        match element_type {
            ElementType::Untyped => Typed::Any,
            ElementType::Builtin(ty) => Typed::Builtin(*ty),
            ElementType::ClassName(class) => Typed::Class(class),
            ElementType::Script(path) => Typed::Script(path),
        }
    }
}

/// The generation of one value: the options, the depth limit and the values left to make.
struct Generator<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    version: Version,
    full_objects: bool,
    precision: Precision,
    max_depth: u16,
    /// Values that may still be made.
    budget: u32,
    /// The key equality of a program of the target version.
    rules: KeyRules,
}

impl<'u, 'a> Generator<'u, 'a> {
    fn new(u: &'u mut Unstructured<'a>, options: EncodeOptions) -> Self {
        let version = options.version();
        Generator {
            u,
            version,
            full_objects: options.full_objects(),
            precision: options.precision(),
            max_depth: options.max_depth().min(Variant::ARBITRARY_MAX_DEPTH),
            budget: MAX_VALUES,
            rules: KeyRules::of(version),
        }
    }

    /// Counts one value made.
    fn take_one(&mut self) {
        self.budget = self.budget.saturating_sub(1);
    }

    /// Whether a value at `depth` may hold others.
    fn may_nest(&self, depth: u16) -> bool {
        depth < self.max_depth && self.budget > 0
    }

    /// How many values a container at `depth` gets.
    fn len(&mut self, depth: u16) -> Result<u32> {
        if !self.may_nest(depth) {
            return Ok(0);
        }
        self.u.int_in_range(0..=MAX_LEN.min(self.budget))
    }

    /// One of `candidates` that the version has.
    fn choose_type(
        &mut self,
        candidates: impl Iterator<Item = VariantType> + Clone,
    ) -> Result<VariantType> {
        let version = self.version;
        let mut present = candidates.filter(|ty| ty.id(version).is_some());
        let index = self.u.choose_index(present.clone().count())?;
        present.nth(index).ok_or(arbitrary::Error::EmptyChoose)
    }

    /// Any value at `depth`.
    fn value(&mut self, depth: u16) -> Result<Variant> {
        self.take_one();
        // A container: half of the values at the top, a third below (`ratio` is true once the
        // input runs out: leaves then).
        let leaf_odds = if depth == 0 { 1u8 } else { 2 };
        if self.may_nest(depth) && !self.u.ratio(leaf_odds, leaf_odds.saturating_add(1))? {
            return match self.u.int_in_range(0u8..=2)? {
                0 => self.array(depth).map(Variant::from),
                1 => self.dictionary(depth).map(Variant::from),
                _ => self.object(depth, Typed::Any).map(Variant::Object),
            };
        }
        let ty = self.choose_type(leaves())?;
        self.leaf(ty, depth)
    }

    /// A value that fits `typed`, at `depth`.
    fn element(&mut self, typed: Typed<'_>, depth: u16) -> Result<Variant> {
        match typed {
            Typed::Any => self.value(depth),
            Typed::Builtin(ty) => {
                self.take_one();
                self.leaf(ty, depth)
            }
            Typed::Class(_) | Typed::Script(_) => {
                self.take_one();
                // An object with a script holds its path: none where nothing may nest.
                let scripted = matches!(typed, Typed::Script(_)) && self.full_objects;
                if self.u.ratio(1u8, 4)? || (scripted && !self.may_nest(depth)) {
                    Ok(Variant::Nil)
                } else {
                    self.object(depth, typed).map(Variant::Object)
                }
            }
        }
    }

    /// A value of type `ty` (one of the version's types) at `depth`; containers are made empty
    /// where nothing may nest.
    fn leaf(&mut self, ty: VariantType, depth: u16) -> Result<Variant> {
        use Variant as V;
        use VariantType as T;
        Ok(match ty {
            T::Bool => V::Bool(self.u.arbitrary()?),
            T::Int => V::Int(self.int()?),
            T::Float => V::Float(self.float()?),
            T::String => V::String(gd_string(self.u, self.version)?),
            T::Vector2 => V::Vector2(self.reals(|v: Vector2<f32>| v.map(widen_exact))?),
            T::Vector2i => V::Vector2i(self.u.arbitrary()?),
            T::Rect2 => {
                V::from(self.reals::<Rect2<f32>, Rect2<f64>>(|v: Rect2<f32>| v.map(widen_exact))?)
            }
            T::Rect2i => V::Rect2i(self.u.arbitrary()?),
            T::Vector3 => V::Vector3(self.reals(|v: Vector3<f32>| v.map(widen_exact))?),
            T::Vector3i => V::Vector3i(self.u.arbitrary()?),
            T::Transform2D => {
                V::Transform2D(Box::new(self.reals(|v: Transform2D<f32>| v.map(widen_exact))?))
            }
            T::Vector4 => V::from(
                self.reals::<Vector4<f32>, Vector4<f64>>(|v: Vector4<f32>| v.map(widen_exact))?,
            ),
            T::Vector4i => V::Vector4i(self.u.arbitrary()?),
            T::Plane => {
                V::from(self.reals::<Plane<f32>, Plane<f64>>(|v: Plane<f32>| v.map(widen_exact))?)
            }
            T::Quaternion => {
                V::from(self.reals::<Quaternion<f32>, Quaternion<f64>>(|v: Quaternion<f32>| {
                    v.map(widen_exact)
                })?)
            }
            T::Aabb => V::Aabb(Box::new(self.reals(|v: Aabb<f32>| v.map(widen_exact))?)),
            T::Basis => V::Basis(Box::new(self.reals(|v: Basis<f32>| v.map(widen_exact))?)),
            T::Transform3D => {
                V::Transform3D(Box::new(self.reals(|v: Transform3D<f32>| v.map(widen_exact))?))
            }
            T::Projection => {
                V::Projection(Box::new(self.reals(|v: Projection<f32>| v.map(widen_exact))?))
            }
            T::Color => V::Color(self.u.arbitrary()?),
            T::StringName => V::StringName(gd_string(self.u, self.version)?),
            T::NodePath => {
                let mut path = NodePath::arbitrary(self.u)?;
                // Godot 3 reads a path without names and subnames as the empty path, which is
                // never absolute.
                if self.version == Version::Godot3
                    && path.names.is_empty()
                    && path.subnames.is_empty()
                {
                    path.absolute = false;
                }
                V::from(path)
            }
            T::Rid => match self.version {
                Version::Godot3 => V::Rid(0),
                Version::Godot4 => V::Rid(self.u.arbitrary()?),
            },
            T::Object => V::Object(self.object(depth, Typed::Any)?),
            T::Callable => V::Callable,
            T::Signal => V::from(Signal::arbitrary(self.u)?),
            T::Dictionary => V::from(self.dictionary(depth)?),
            T::Array => V::from(self.array(depth)?),
            T::PackedByteArray => V::PackedByteArray(self.packed(|u| u.arbitrary())?),
            T::PackedInt32Array => V::PackedInt32Array(self.packed(|u| u.arbitrary())?),
            T::PackedInt64Array => V::PackedInt64Array(self.packed(|u| u.arbitrary())?),
            T::PackedFloat32Array => V::PackedFloat32Array(self.packed(|u| u.arbitrary())?),
            T::PackedFloat64Array => V::PackedFloat64Array(self.packed(|u| u.arbitrary())?),
            T::PackedStringArray => {
                let version = self.version;
                V::PackedStringArray(self.packed(|u| gd_string(u, version))?)
            }
            T::PackedVector2Array => V::PackedVector2Array(self.packed_reals(Vector2::map)?),
            T::PackedVector3Array => V::PackedVector3Array(self.packed_reals(Vector3::map)?),
            T::PackedColorArray => V::PackedColorArray(self.packed(|u| u.arbitrary())?),
            T::PackedVector4Array => V::PackedVector4Array(self.packed_reals(Vector4::map)?),
            // `Nil`, and any type added later.
            _ => V::Nil,
        })
    }

    fn int(&mut self) -> Result<i64> {
        Ok(match self.u.int_in_range(0u8..=2)? {
            0 => i64::from(self.u.arbitrary::<i8>()?),
            1 => *self.u.choose(SPECIAL_INTS)?,
            _ => self.u.arbitrary()?,
        })
    }

    fn float(&mut self) -> Result<f64> {
        Ok(match self.u.int_in_range(0u8..=3)? {
            0 => f64::from_bits(*self.u.choose(SPECIAL_FLOATS)?),
            1 => widen_exact(self.u.arbitrary::<f32>()?),
            2 => f64::from(self.u.arbitrary::<i16>()?) / 4.0,
            _ => self.u.arbitrary()?,
        })
    }

    /// A real-valued math value: `f32` components widened with `widen`, or any `f64` ones in
    /// double precision, NaNs quiet (as decoding leaves them: Godot's `f32` `real_t` quiets them).
    fn reals<S: Arbitrary<'a>, D: Arbitrary<'a> + RealValue>(
        &mut self,
        widen: impl FnOnce(S) -> D,
    ) -> Result<D> {
        match self.precision {
            Precision::Single => Ok(widen(self.u.arbitrary()?)),
            Precision::Double => Ok(self.u.arbitrary::<D>()?.quiet()),
        }
    }

    /// Up to 16 elements made by `element`.
    fn packed<T>(
        &mut self,
        mut element: impl FnMut(&mut Unstructured<'a>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let len = self.u.int_in_range(0..=MAX_PACKED)?;
        (0..len).map(|_| element(self.u)).collect()
    }

    /// Up to 16 real-valued vectors (`map` is the vector type's `map`).
    fn packed_reals<S, D>(&mut self, map: fn(S, fn(f32) -> f64) -> D) -> Result<Vec<D>>
    where
        S: Arbitrary<'a>,
        D: Arbitrary<'a> + RealValue,
    {
        match self.precision {
            Precision::Single => self.packed(|u| Ok(map(u.arbitrary()?, widen_exact))),
            Precision::Double => self.packed(|u| Ok(u.arbitrary::<D>()?.quiet())),
        }
    }

    /// The declared type of a container's elements, keys or values.
    fn element_type(&mut self) -> Result<ElementType<String>> {
        if self.version == Version::Godot3 || self.u.ratio(1u8, 2)? {
            return Ok(ElementType::Untyped);
        }
        if self.u.ratio(3u8, 4)? {
            let builtin =
                all_types().filter(|ty| !matches!(ty, VariantType::Nil | VariantType::Object));
            return Ok(ElementType::Builtin(self.choose_type(builtin)?));
        }
        if !self.full_objects {
            return Ok(ElementType::ClassName(String::from(ENCODED_OBJECT_AS_ID)));
        }
        if self.u.ratio(2u8, 3)? {
            Ok(ElementType::ClassName(String::from(self.class()?)))
        } else {
            Ok(ElementType::Script(self.script_path()?))
        }
    }

    /// A class the version's decoder instantiates.
    fn class(&mut self) -> Result<&'static str> {
        self.u.choose(crate::wire::classes::instantiable_classes(self.version)).copied()
    }

    /// A made-up `res://` script path.
    fn script_path(&mut self) -> Result<String> {
        let name: String = godot_string(self.u)?.chars().filter(|c| *c != '/').collect();
        Ok(format!("res://{name}.gd"))
    }

    /// An array at `depth` (its elements one deeper).
    fn array(&mut self, depth: u16) -> Result<Array> {
        let mut array = Array::typed(self.element_type()?);
        let len = self.len(depth)?;
        let inner = depth.saturating_add(1);
        let element_type = array.element_type.clone();
        for _ in 0..len {
            array.elements.push(self.element(Typed::of(&element_type), inner)?);
        }
        Ok(array)
    }

    /// A dictionary at `depth` (keys and values one deeper).
    fn dictionary(&mut self, depth: u16) -> Result<Dictionary> {
        let key_type = self.element_type()?;
        let value_type = self.element_type()?;
        let mut dictionary =
            Dictionary::with_rules(key_type.clone(), value_type.clone(), self.rules);
        let len = self.len(depth)?;
        let inner = depth.saturating_add(1);
        for _ in 0..len {
            let key = self.element(Typed::of(&key_type), inner)?;
            let value = self.element(Typed::of(&value_type), inner)?;
            dictionary.insert(key, value);
        }
        Ok(dictionary)
    }

    /// An object at `depth` that fits `typed` (`Any`, `Class` or `Script`): an instance id, or
    /// with full objects a full object (its property values one deeper).
    fn object(&mut self, depth: u16, typed: Typed<'_>) -> Result<Object> {
        let by_id = match typed {
            Typed::Any => !self.full_objects || self.u.ratio(1u8, 3)?,
            _ => !self.full_objects,
        };
        if by_id {
            return Ok(Object::Id(self.u.int_in_range(1..=u64::MAX)?));
        }
        let class = match typed {
            Typed::Class(class) => String::from(class),
            _ => String::from(self.class()?),
        };
        let godot4 = self.version == Version::Godot4;
        let len = self.len(depth)?;
        let inner = depth.saturating_add(1);
        let mut properties = Vec::new();
        for _ in 0..len {
            let name = godot_string(self.u)?;
            let value = if godot4 && name == "script" {
                self.take_one();
                Variant::Nil
            } else {
                self.value(inner)?
            };
            properties.push((name, value));
        }
        // Godot 4 writes `script` last: nil, or the script's path.
        let may_nest = self.may_nest(depth);
        let script = match typed {
            Typed::Script(path) if may_nest => Some(Variant::from(path)),
            _ if godot4 && may_nest && !self.u.ratio(7u8, 8)? => {
                Some(match self.u.arbitrary::<bool>()? {
                    true => Variant::from(self.script_path()?),
                    false => Variant::Nil,
                })
            }
            _ => None,
        };
        if let Some(script) = script {
            self.take_one();
            properties.push((String::from("script"), script));
        }
        Ok(Object::full(class, properties))
    }
}
