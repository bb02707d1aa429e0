//! `reencode`: whatever validates re-encodes faithfully.
//!
//! Under both versions, with objects refused and allowed: when the input validates and decodes,
//! its owned value encodes (full objects written when they were allowed in), and those bytes
//! validate and decode to a value `same` (bitwise) as the first, and encode to themselves:
//! Godot's canonical form is a fixed point (a Godot 3 string spelled with overlong forms is
//! written in the shortest forms the first time, as Godot writes it). Godot 4 values are written in single precision and,
//! again, in double precision (which holds every single-precision value exactly); the check in
//! single precision is skipped when the input holds double-precision math values, which single
//! precision narrows. Four rewrites are Godot's own, and for values that
//! hold them only that the re-encoded bytes validate and decode is asserted:
//!
//! * a null object is written as `Nil` (a full object with an empty class name reads as a null
//!   object), so it reads back as `Nil` (and, as a dictionary key, may merge with a `Nil` key);
//! * without full objects, the class name or script of a typed container is written as the
//!   class `EncodedObjectAsID`;
//! * a reader drops one leading U+FEFF (byte-order mark) from every string, so a string whose
//!   text still starts with one (it had two on the wire) loses it at each round trip;
//! * a signalling NaN in a math value or packed vector read in single precision stays
//!   signalling, but written in double precision it reads back quiet (Godot converts the `f64`
//!   to its `f32` `real_t`, which quiets a NaN).

use gdvariant::{
    ElementType, EncodeOptions, Variant, VariantRef, Version, math::Precision, owned::GdString,
    owned::Object, view::ObjectRef,
};

use super::options;

/// The target.
pub fn check(data: &[u8]) {
    for options in options::all() {
        if gdvariant::validate(data, options).is_err() {
            continue;
        }
        // Godot 3 class and property names outside Unicode validate but have no owned form.
        let Ok(value) = gdvariant::decode(data, options) else { continue };
        let single =
            EncodeOptions::new(options.version()).with_full_objects(options.allow_objects());
        let double = single.with_precision(Precision::Double);
        let parsed = gdvariant::parse(data, options).expect("validated");
        if options.version() == Version::Godot3 || !holds_double_reals(parsed) {
            round_trip(&value, single, options);
        }
        if options.version() == Version::Godot4 {
            round_trip(&value, double, options);
        }
    }
}

/// Encodes `value` with `encode_options` and checks what comes back (see the module docs).
fn round_trip(value: &Variant, encode_options: EncodeOptions, options: gdvariant::Options) {
    let bytes = value
        .encode(encode_options)
        .unwrap_or_else(|e| panic!("{encode_options:?}: a decoded value does not encode: {e}"));
    if let Err(e) = gdvariant::validate(&bytes, options) {
        panic!("{encode_options:?}: re-encoded bytes do not validate: {e}");
    }
    let again = gdvariant::decode(&bytes, options)
        .unwrap_or_else(|e| panic!("{encode_options:?}: re-encoded bytes do not decode: {e}"));
    if rewritten_by_godot(value, options.allow_objects())
        || (encode_options.precision() == Precision::Double && holds_signalling_real(value))
    {
        return;
    }
    assert!(
        again.same(value),
        "{encode_options:?}: re-encoded bytes decode differently:\n{value:?}\n{again:?}"
    );
    let twice = again.encode(encode_options).expect("a decoded value encodes");
    assert!(twice == bytes, "{encode_options:?}: encoding is not a fixed point");
}

/// Whether a (validated) value holds a math value or packed vectors in double precision.
pub fn holds_double_reals(value: VariantRef<'_>) -> bool {
    use gdvariant::packed::PackedReals as P;
    let double = |p: Precision| p == Precision::Double;
    match value {
        VariantRef::Vector2(r) => double(r.precision()),
        VariantRef::Rect2(r) => double(r.precision()),
        VariantRef::Vector3(r) => double(r.precision()),
        VariantRef::Transform2D(r) => double(r.precision()),
        VariantRef::Vector4(r) => double(r.precision()),
        VariantRef::Plane(r) => double(r.precision()),
        VariantRef::Quaternion(r) => double(r.precision()),
        VariantRef::Aabb(r) => double(r.precision()),
        VariantRef::Basis(r) => double(r.precision()),
        VariantRef::Transform3D(r) => double(r.precision()),
        VariantRef::Projection(r) => double(r.precision()),
        VariantRef::PackedVector2Array(P::Double(_))
        | VariantRef::PackedVector3Array(P::Double(_))
        | VariantRef::PackedVector4Array(P::Double(_)) => true,
        VariantRef::Array(array) => array.iter().any(|v| v.is_ok_and(holds_double_reals)),
        VariantRef::Dictionary(dictionary) => dictionary
            .iter()
            .any(|e| e.is_ok_and(|(k, v)| holds_double_reals(k) || holds_double_reals(v))),
        VariantRef::Object(ObjectRef::Full(object)) => {
            object.properties().any(|p| p.is_ok_and(|(_, v)| holds_double_reals(v.value())))
        }
        _ => false,
    }
}

/// Whether a round trip through Godot's encoding rewrites part of `value` (see the module
/// docs).
pub fn rewritten_by_godot(value: &Variant, full_objects: bool) -> bool {
    let bom = |text: &String| text.starts_with('\u{feff}');
    let bom_first = |text: &GdString| text.code_points().next() == Some(0xFEFF);
    let container = |ty: &ElementType<String>| match ty {
        ElementType::Untyped | ElementType::Builtin(_) => false,
        ElementType::ClassName(class) => {
            (!full_objects && class != "EncodedObjectAsID") || bom(class)
        }
        ElementType::Script(path) => !full_objects || bom(path),
    };
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        let rewritten = match value {
            Variant::Object(Object::Null) => true,
            Variant::String(text) | Variant::StringName(text) => bom_first(text),
            Variant::NodePath(path) => path.names.iter().chain(&path.subnames).any(bom_first),
            Variant::PackedStringArray(texts) => texts.iter().any(bom_first),
            Variant::Signal(signal) => bom(&signal.name),
            Variant::Object(Object::Full(object)) => {
                let (class, properties) = (&object.class, &object.properties);
                stack.extend(properties.iter().map(|(_, v)| v));
                bom(class) || properties.iter().any(|(name, _)| bom(name))
            }
            Variant::Array(array) => {
                stack.extend(array.iter());
                container(&array.element_type)
            }
            Variant::Dictionary(dictionary) => {
                stack.extend(dictionary.entries().iter().flat_map(|(k, v)| [k, v]));
                container(&dictionary.key_type) || container(&dictionary.value_type)
            }
            _ => false,
        };
        if rewritten {
            return true;
        }
    }
    false
}

/// Whether `value` holds a signalling NaN in a `real_t` component (a math value or a packed
/// vector; `float` and the packed float arrays are not `real_t`).
pub fn holds_signalling_real(value: &Variant) -> bool {
    let mut reals = Vec::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        let mut push = |c: f64| reals.push(c);
        match value {
            Variant::Vector2(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Rect2(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Vector3(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Transform2D(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Vector4(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Plane(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Quaternion(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Aabb(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Basis(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Transform3D(v) => {
                let _ = v.map(&mut push);
            }
            Variant::Projection(v) => {
                let _ = v.map(&mut push);
            }
            Variant::PackedVector2Array(p) => p.iter().for_each(|v| {
                let _ = v.map(&mut push);
            }),
            Variant::PackedVector3Array(p) => p.iter().for_each(|v| {
                let _ = v.map(&mut push);
            }),
            Variant::PackedVector4Array(p) => p.iter().for_each(|v| {
                let _ = v.map(&mut push);
            }),
            Variant::Object(Object::Full(object)) => {
                stack.extend(object.properties.iter().map(|(_, v)| v))
            }
            Variant::Array(array) => stack.extend(array.iter()),
            Variant::Dictionary(dictionary) => {
                stack.extend(dictionary.entries().iter().flat_map(|(k, v)| [k, v]))
            }
            _ => {}
        }
    }
    reals.iter().any(|c| c.is_nan() && c.to_bits() & (1 << 51) == 0)
}
