//! Typed containers as the game sees them (Godot 4.3+): which wire elements Godot 4.6's decoder
//! keeps, converts or drops, and what it converts them to.
//!
//! A typed `Array` (or a typed `Dictionary`'s keys) declares a type, but the wire elements need
//! not match it. Godot decodes each element, then stores it with `push_back` (a key with the
//! dictionary's key check), which keeps an element of the declared type, **converts** one of a
//! type it can be built from with Godot's constructor, and **drops** any other (logging an
//! error; decoding goes on). Dictionary values are never checked. The rules, all measured on
//! the real engine (`corpus/probes/typed/`):
//!
//! * Which types convert: [`ContainerType::admission`] (`bool` from `int` and `float`, `int`
//!   from `bool` and `float`, `float` from `bool` and `int`, `String` from `StringName` and
//!   `NodePath`, `StringName` and `NodePath` from `String`, real vectors from integer vectors
//!   and back, `Transform2D` from `Transform3D`, `Quaternion` and `Basis` from each other,
//!   `Transform3D` from `Transform2D`, `Quaternion`, `Basis` and `Projection`, `Projection` from
//!   `Transform3D`, `Color` from `int` and `String`, `RID` from `Object`, `Array` from every
//!   packed array and back). `Nil` converts to nothing, and is kept only by object containers.
//! * The values, bit for bit: `bool` is `!= 0`; `int` from `float` truncates toward zero,
//!   saturating (`±inf`, `1e20` give `i64::MAX` / `i64::MIN`, NaN gives 0); `float` from `int`
//!   rounds to nearest even; integer vector components truncate each `f32` component the same
//!   way, saturating at the `i32` range; transforms and `Quaternion` / `Basis` are computed in
//!   single precision as the engine computes them (a `Quaternion` that is not unit length is
//!   not normalised); `Color` from `int` is `Color::hex` of its low 32 bits, from `String` an
//!   HTML code (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, the `#` optional), else a named colour
//!   (spaces, `-`, `_`, `'` and `.` ignored, any case), else opaque black; the `RID` of a null
//!   object or an instance id is 0.
//! * Class- and script-typed containers: without full objects Godot types them
//!   `EncodedObjectAsID` and keeps `Nil` and every object; with full objects an object is kept
//!   when its class is the declared class or inherits from it (Godot 4.6's class tree; an
//!   instance id is an `EncodedObjectAsID`, which inherits `RefCounted`), and a script-typed
//!   container keeps only objects carrying a script that inherits the declared one.
//!
//! Reals are computed as the official (single-precision) builds compute them: an `f64`
//! component on the wire is first narrowed to `f32`, as such a build stores it.
//!
//! What this view gives, without allocating: [`ArrayRef::game_elements`] and
//! [`DictionaryRef::game_entries`] skip what Godot drops and say, for each element (or key),
//! whether it is kept as it is ([`GameElement::Kept`]) or converted, to which type, and the
//! converted value when it needs no allocation ([`Converted`]). What needs allocating (a
//! `NodePath` parsed from a `String` and its text, `Array` to and from packed arrays, whose
//! elements convert one by one) or depends on the game at run time (the `RID` of a full object
//! whose class allocates one; a `Tree` crashes Godot 4.6 there) is given as `value: None`; the owned layer
//! ([`decode`](crate::decode) with [`Options::with_game_view`](crate::Options::with_game_view))
//! builds all of it but the run-time values. Repeated keys are not merged here: a dictionary
//! whose keys collide after conversion keeps, in Godot, the first position and the last value,
//! as [`DictionaryRef::get`] finds it and as the owned layer merges them.
//!
//! What is checked where: the element's structure is walked when it is reached (as by the
//! container's own iterators); a `String`'s text is checked when converting it to a `Color`. A
//! full object in a script-typed container with full objects allowed, carrying a script, is
//! an [`ErrorKind::GameDependent`] error: whether its script
//! inherits the container's depends on the game's scripts.
//!
//! Costs: each element costs what the container's iterator costs to reach it, plus O(1) for
//! the verdict and a conversion, O(length) for a `String` converted to a `Color`, O(properties)
//! for a full object in a script-typed container, O(log n) per class level for a full object in
//! a class-typed one. No allocation, no recursion.

pub(crate) mod color;
pub(crate) mod math;
mod runtime_rid;

use super::array::{ArrayRef, Elements};
use super::container_type::{Admission, ContainerType};
use super::dictionary::{DictionaryRef, Entries};
use super::element::Element;
use super::math::{
    Basis, Color, Projection, Quaternion, Rect2, Transform2D, Transform3D, Vector2, Vector3,
    Vector4,
};
use super::object::ObjectRef;
use super::string::GdStr;
use super::value::VariantRef;
use crate::wire::classes;
use crate::wire::error::{Error, ErrorKind, Result};
use crate::wire::exact_float::narrow_exact;
use crate::wire::types::VariantType;

pub(crate) use runtime_rid::has_runtime_rid;

/// What the game holds for one element (or key) of a typed container that it did not drop.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum GameElement<'a> {
    /// Stored as it is on the wire.
    Kept(Element<'a>),
    /// Converted with Godot's constructor of the declared type.
    Converted {
        /// The element as it is on the wire.
        wire: Element<'a>,
        /// The type the game stores.
        to: VariantType,
        /// The value the game stores, when it needs no allocation; `None` for a `NodePath`
        /// and its text, an `Array` made from a packed array and back, and the `RID` of a full
        /// object whose class allocates one at run time.
        value: Option<Converted<'a>>,
    },
}

impl<'a> GameElement<'a> {
    /// The element as it is on the wire.
    pub fn wire(&self) -> Element<'a> {
        match *self {
            GameElement::Kept(element) | GameElement::Converted { wire: element, .. } => element,
        }
    }

    /// The type the game stores.
    pub fn variant_type(&self) -> VariantType {
        match *self {
            GameElement::Kept(element) => element.variant_type(),
            GameElement::Converted { to, .. } => to,
        }
    }
}

/// A converted value that needs no allocation. Reals are single precision, as the official
/// builds store them; a `String` made from a `StringName` (or the reverse) is the same text.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Converted<'a> {
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `float`.
    Float(f64),
    /// `String`: a `StringName`'s text.
    String(GdStr<'a>),
    /// `StringName`: a `String`'s text.
    StringName(GdStr<'a>),
    /// `Vector2`.
    Vector2(Vector2<f32>),
    /// `Vector2i`.
    Vector2i(Vector2<i32>),
    /// `Rect2`.
    Rect2(Rect2<f32>),
    /// `Rect2i`.
    Rect2i(Rect2<i32>),
    /// `Vector3`.
    Vector3(Vector3<f32>),
    /// `Vector3i`.
    Vector3i(Vector3<i32>),
    /// `Transform2D`.
    Transform2D(Transform2D<f32>),
    /// `Vector4`.
    Vector4(Vector4<f32>),
    /// `Vector4i`.
    Vector4i(Vector4<i32>),
    /// `Quaternion`.
    Quaternion(Quaternion<f32>),
    /// `Basis`.
    Basis(Basis<f32>),
    /// `Transform3D`.
    Transform3D(Transform3D<f32>),
    /// `Projection`.
    Projection(Projection<f32>),
    /// `Color`.
    Color(Color<f32>),
    /// `RID`: its id.
    Rid(u64),
}

impl ContainerType<'_> {
    /// What the game holds for `element`, an element (or key) of a container of this type:
    /// `None` when Godot drops it. O(1) plus the conversion (see the [module docs](self)).
    ///
    /// # Errors
    /// A `String` whose text is not valid, when it converts to a `Color`;
    /// [`ErrorKind::GameDependent`] for a full object carrying a script in a script-typed
    /// container, with full objects allowed.
    pub fn game_element<'a>(&self, element: Element<'a>) -> Result<Option<GameElement<'a>>> {
        let allow_objects = element.options().allow_objects();
        let kept = Some(GameElement::Kept(element));
        Ok(match self.admission(element.variant_type(), allow_objects) {
            Admission::Keep => kept,
            Admission::Drop => None,
            Admission::Convert => {
                let ContainerType::Builtin(to) = *self else { return Ok(None) };
                let value = convert(&element.value(), to)?;
                Some(GameElement::Converted { wire: element, to, value })
            }
            Admission::ClassCheck => {
                self.check_object(&element)?.then_some(GameElement::Kept(element))
            }
        })
    }

    /// Whether a class- or script-typed container keeps `element`, an object, with full objects
    /// allowed.
    fn check_object(&self, element: &Element<'_>) -> Result<bool> {
        let class: &[u8] = match element.value() {
            VariantRef::Object(ObjectRef::Full(object)) => {
                if let ContainerType::Script(_) = self {
                    // Kept only if its script inherits the container's: the game's scripts decide.
                    if carries_script(&object)? {
                        return Err(Error::new(element.offset(), ErrorKind::GameDependent));
                    }
                    return Ok(false);
                }
                object.class_name().text_bytes()
            }
            VariantRef::Object(ObjectRef::Id(_)) => b"EncodedObjectAsID",
            _ => return Ok(true),
        };
        Ok(match self {
            ContainerType::ClassName(name) => classes::inherits(class, name.text_bytes()),
            // An instance id carries no script.
            _ => false,
        })
    }
}

/// Whether a full object sets a `script` other than `null` (the last `script` property wins).
fn carries_script(object: &super::object::FullObject<'_>) -> Result<bool> {
    let mut script = false;
    for property in object.properties() {
        let (name, value) = property?;
        if name.text_bytes() == b"script" {
            script = !value.value().is_nil();
        }
    }
    Ok(script)
}

/// The single-precision form of a real-valued math value, as a single-precision build stores
/// it (an `f64` component narrowed to nearest).
macro_rules! single {
    ($reals:expr) => {
        match $reals.get_f32() {
            Some(single) => single,
            None => $reals.get().map(narrow_exact),
        }
    };
}

/// The value Godot's constructor of `to` makes of `value`, when it needs no allocation.
fn convert<'a>(value: &VariantRef<'a>, to: VariantType) -> Result<Option<Converted<'a>>> {
    use self::math::*;
    use Converted as C;
    use VariantRef as R;
    use VariantType as T;
    Ok(Some(match (to, *value) {
        (T::Bool, R::Int(i)) => C::Bool(bool_from_int(i)),
        (T::Bool, R::Float(f)) => C::Bool(bool_from_float(f)),
        (T::Int, R::Bool(b)) => C::Int(i64::from(b)),
        (T::Int, R::Float(f)) => C::Int(int_from_float(f)),
        (T::Float, R::Bool(b)) => C::Float(if b { 1.0 } else { 0.0 }),
        (T::Float, R::Int(i)) => C::Float(float_from_int(i)),
        (T::String, R::StringName(s)) => C::String(s),
        (T::StringName, R::String(s)) => C::StringName(s),
        (T::Vector2, R::Vector2i(v)) => C::Vector2(v.map(real_from_i32)),
        (T::Vector2i, R::Vector2(v)) => C::Vector2i(single!(v).map(i32_from_real)),
        (T::Rect2, R::Rect2i(v)) => C::Rect2(v.map(real_from_i32)),
        (T::Rect2i, R::Rect2(v)) => C::Rect2i(single!(v).map(i32_from_real)),
        (T::Vector3, R::Vector3i(v)) => C::Vector3(v.map(real_from_i32)),
        (T::Vector3i, R::Vector3(v)) => C::Vector3i(single!(v).map(i32_from_real)),
        (T::Vector4, R::Vector4i(v)) => C::Vector4(v.map(real_from_i32)),
        (T::Vector4i, R::Vector4(v)) => C::Vector4i(single!(v).map(i32_from_real)),
        (T::Transform2D, R::Transform3D(t)) => C::Transform2D(transform2d_from_3d(single!(t))),
        (T::Quaternion, R::Basis(b)) => C::Quaternion(quaternion_from_basis(single!(b))),
        (T::Basis, R::Quaternion(q)) => C::Basis(basis_from_quaternion(single!(q))),
        (T::Transform3D, R::Transform2D(t)) => C::Transform3D(transform3d_from_2d(single!(t))),
        (T::Transform3D, R::Quaternion(q)) => {
            C::Transform3D(transform3d_from_basis(basis_from_quaternion(single!(q))))
        }
        (T::Transform3D, R::Basis(b)) => C::Transform3D(transform3d_from_basis(single!(b))),
        (T::Transform3D, R::Projection(p)) => {
            C::Transform3D(transform3d_from_projection(single!(p)))
        }
        (T::Projection, R::Transform3D(t)) => {
            C::Projection(projection_from_transform3d(single!(t)))
        }
        // `operator int()` is 32 bits: the low 32 bits of the int.
        (T::Color, R::Int(i)) => C::Color(color::color_from_hex(i as u32)),
        (T::Color, R::String(s)) => C::Color(color::color_from_text(s.to_str()?)),
        (T::Rid, R::Object(ObjectRef::Full(object))) => {
            if has_runtime_rid(object.class_name().text_bytes()) {
                return Ok(None);
            }
            C::Rid(0)
        }
        // A null object, or an instance id (an EncodedObjectAsID, which has no RID).
        (T::Rid, R::Object(_)) => C::Rid(0),
        _ => return Ok(None),
    }))
}

impl<'a> ArrayRef<'a> {
    /// The elements as the game holds them (Godot 4.3+ typed arrays): what Godot drops is
    /// skipped, and each element says whether it is kept as it is or converted, and to what
    /// (see the [`game`](crate::game) module). An untyped array keeps every element. O(1) to
    /// make; iterating costs what [`elements`](Self::elements) costs, plus the conversions.
    ///
    /// ```
    /// use gdvariant::game::{Converted, GameElement};
    /// use gdvariant::{EncodeOptions, ElementType, Options, VariantType, Writer};
    ///
    /// // Array[float]([1.5, 7, "x"]) as a peer could send it: Godot converts 7, drops "x".
    /// let mut writer = Writer::new(Vec::new(), EncodeOptions::godot4());
    /// writer.begin_typed_array(ElementType::Builtin(VariantType::Float), 3)?;
    /// writer.float(1.5)?;
    /// writer.int(7)?;
    /// writer.string("x")?;
    /// let bytes = writer.finish()?;
    ///
    /// let array = gdvariant::parse(&bytes, Options::godot4())?.as_array().unwrap();
    /// let game: Vec<_> = array.game_elements()?.collect::<Result<_, _>>()?;
    /// assert_eq!(game.len(), 2);
    /// assert!(matches!(game[0], GameElement::Kept(_)));
    /// assert!(matches!(
    ///     game[1],
    ///     GameElement::Converted { to: VariantType::Float, value: Some(Converted::Float(7.0)), .. }
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// None in practice: the type information was checked when the array was parsed.
    pub fn game_elements(&self) -> Result<GameElements<'a>> {
        Ok(GameElements {
            declared: self.element_type()?,
            elements: self.elements(),
            failed: false,
        })
    }
}

/// The elements of an array as the game holds them ([`ArrayRef::game_elements`]); fused after
/// the first error.
#[derive(Clone, Debug)]
pub struct GameElements<'a> {
    declared: ContainerType<'a>,
    elements: Elements<'a>,
    failed: bool,
}

impl<'a> Iterator for GameElements<'a> {
    type Item = Result<GameElement<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            let element = match self.elements.next()? {
                Ok(element) => element,
                Err(error) => return Some(Err(error)),
            };
            match self.declared.game_element(element) {
                Ok(Some(game)) => return Some(Ok(game)),
                Ok(None) => {}
                Err(error) => {
                    self.failed = true;
                    return Some(Err(error));
                }
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, if self.failed { Some(0) } else { self.elements.size_hint().1 })
    }
}

impl core::iter::FusedIterator for GameElements<'_> {}

impl<'a> DictionaryRef<'a> {
    /// The entries as the game holds them (Godot 4.4+ typed dictionaries): entries whose key
    /// Godot drops are skipped (the value too), and each key says whether it is kept as it is
    /// or converted, and to what (see the [`game`](crate::game) module); values are never
    /// converted. Keys that collide after conversion are not merged here (Godot keeps the first
    /// position and the last value). O(1) to make; iterating costs what
    /// [`entries`](Self::entries) costs, plus the conversions.
    ///
    /// # Errors
    /// None in practice: the type information was checked when the dictionary was parsed.
    pub fn game_entries(&self) -> Result<GameEntries<'a>> {
        Ok(GameEntries { key_type: self.key_type()?, entries: self.entries(), failed: false })
    }
}

/// The entries of a dictionary as the game holds them ([`DictionaryRef::game_entries`]); fused
/// after the first error.
#[derive(Clone, Debug)]
pub struct GameEntries<'a> {
    key_type: ContainerType<'a>,
    entries: Entries<'a>,
    failed: bool,
}

impl<'a> Iterator for GameEntries<'a> {
    type Item = Result<(GameElement<'a>, Element<'a>)>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            let (key, value) = match self.entries.next()? {
                Ok(entry) => entry,
                Err(error) => return Some(Err(error)),
            };
            match self.key_type.game_element(key) {
                Ok(Some(game)) => return Some(Ok((game, value))),
                Ok(None) => {}
                Err(error) => {
                    self.failed = true;
                    return Some(Err(error));
                }
            }
        }
        None
    }
}

impl core::iter::FusedIterator for GameEntries<'_> {}
