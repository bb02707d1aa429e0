//! Values that hold no other value: scalars, strings (the text the game reads), math values
//! and packed arrays, each read from its view in one piece.

use super::*;

/// The owned text of a name (a class or property name, a signal name): the text the game reads,
/// overlong forms normalised; `NotUnicode` for code points `str` cannot hold.
pub(super) fn text(s: &GdStr<'_>) -> Result<String> {
    s.to_text().map(alloc::borrow::Cow::into_owned)
}

/// The owned string of a value (a `String`, `StringName`, NodePath name or `PackedStringArray`
/// element): the code points the game reads.
pub(super) fn string(s: &GdStr<'_>) -> Result<GdString> {
    GdString::from_view(s)
}

/// A NodePath or a PackedStringArray, read in one pass: the value and where it ends. Sized from
/// its counts (see [`Decoder::reserve`]).
pub(super) fn strings(value: &VariantRef<'_>) -> Result<(Variant, usize)> {
    Ok(match value {
        VariantRef::NodePath(path) => {
            let mut all = path.all_strings();
            let name_count = path.name_count();
            let mut names = Vec::with_capacity(name_count);
            let mut subnames = Vec::with_capacity(path.subname_count());
            for (i, s) in all.by_ref().enumerate() {
                let s = string(&s?)?;
                if i < name_count {
                    names.push(s);
                } else {
                    subnames.push(s);
                }
            }
            let absolute = path.is_absolute();
            (Variant::NodePath(Box::new(NodePath { names, subnames, absolute })), all.position())
        }
        VariantRef::PackedStringArray(strings) => {
            let mut all = strings.iter();
            let mut texts = Vec::with_capacity(strings.len());
            for s in all.by_ref() {
                texts.push(string(&s?)?);
            }
            (Variant::PackedStringArray(texts), all.position())
        }
        // parse_head gives a Strings extent to these two only.
        other => (leaf(other)?, 0),
    })
}

/// The owned form of a value with nothing inside it to walk.
pub(super) fn leaf(value: &VariantRef<'_>) -> Result<Variant> {
    use Variant as V;
    use VariantRef as R;
    Ok(match *value {
        R::Nil => V::Nil,
        R::Bool(b) => V::Bool(b),
        R::Int(i) => V::Int(i),
        R::Float(f) => V::Float(f),
        R::String(s) => V::String(string(&s)?),
        R::StringName(s) => V::StringName(string(&s)?),
        R::Vector2(v) => V::Vector2(reals(&v)),
        R::Vector2i(v) => V::Vector2i(v),
        R::Rect2(v) => V::Rect2(Box::new(reals(&v))),
        R::Rect2i(v) => V::Rect2i(v),
        R::Vector3(v) => V::Vector3(reals(&v)),
        R::Vector3i(v) => V::Vector3i(v),
        R::Transform2D(v) => V::Transform2D(Box::new(reals(&v))),
        R::Vector4(v) => V::Vector4(Box::new(reals(&v))),
        R::Vector4i(v) => V::Vector4i(v),
        R::Plane(v) => V::Plane(Box::new(reals(&v))),
        R::Quaternion(v) => V::Quaternion(Box::new(reals(&v))),
        R::Aabb(v) => V::Aabb(Box::new(reals(&v))),
        R::Basis(v) => V::Basis(Box::new(reals(&v))),
        R::Transform3D(v) => V::Transform3D(Box::new(reals(&v))),
        R::Projection(v) => V::Projection(Box::new(reals(&v))),
        R::Color(c) => V::Color(c),
        R::Rid(id) => V::Rid(id.unwrap_or(0)),
        R::Object(ObjectRef::Null) => V::Object(Object::Null),
        R::Object(ObjectRef::Id(id)) => V::Object(Object::Id(id)),
        R::Callable => V::Callable,
        R::Signal(signal) => V::Signal(Box::new(Signal {
            name: text(&signal.name())?,
            object_id: signal.object_id(),
        })),
        R::PackedByteArray(bytes) => V::PackedByteArray(bytes.to_vec()),
        R::PackedInt32Array(p) => V::PackedInt32Array(p.to_vec()),
        R::PackedInt64Array(p) => V::PackedInt64Array(p.to_vec()),
        R::PackedFloat32Array(p) => V::PackedFloat32Array(p.to_vec()),
        R::PackedFloat64Array(p) => V::PackedFloat64Array(p.to_vec()),
        R::PackedColorArray(p) => V::PackedColorArray(p.to_vec()),
        R::PackedVector2Array(p) => {
            V::PackedVector2Array(packed_reals(&p, |v| v.map(widen_exact), |v| v.map(quiet)))
        }
        R::PackedVector3Array(p) => {
            V::PackedVector3Array(packed_reals(&p, |v| v.map(widen_exact), |v| v.map(quiet)))
        }
        R::PackedVector4Array(p) => {
            V::PackedVector4Array(packed_reals(&p, |v| v.map(widen_exact), |v| v.map(quiet)))
        }
        // Containers, full objects, NodePaths and PackedStringArrays hold more than their head;
        // `convert` reads them (this is reached only from `Variant::from_ref`, which sends
        // containers and full objects to `convert`).
        R::NodePath(_) | R::PackedStringArray(_) => strings(value)?.0,
        R::Array(_) | R::Dictionary(_) | R::Object(ObjectRef::Full(_)) => {
            return Variant::from_ref(value);
        }
    })
}

/// A real-valued math value with `f64` components, single-precision ones widened bit for bit,
/// double-precision ones with their NaNs quiet (as Godot's `f32` `real_t` holds them).
pub(super) fn reals<V: RealValue>(value: &Reals<'_, V>) -> V {
    match value.get_f32() {
        Some(single) => V::widen_exact(single),
        None => value.get().quiet(),
    }
}

/// The elements of a packed vector array with `f64` components (as [`reals`]).
pub(super) fn packed_reals<S: PackedElement, D: PackedElement>(
    packed: &PackedReals<'_, S, D>,
    widen: impl Fn(S) -> D,
    quiet: impl Fn(D) -> D,
) -> Vec<D> {
    match packed {
        PackedReals::Single(p) => p.iter().map(widen).collect(),
        PackedReals::Double(p) => p.iter().map(quiet).collect(),
    }
}

/// The most common values read straight from their header, without a view: `null`, `bool`,
/// `int`, `float`, `String` and `Vector2` (their ids are the same in both versions), with
/// where they end. `None` for any other value, and for one of these that does not read as
/// [`parse_head`] and [`leaf`] would accept it: the caller then reads it the general way, which
/// reports the problem. What it returns is what those two give. The caller has checked the
/// depth. O(1), a string O(its length).
#[inline]
pub(super) fn quick_leaf(buf: &[u8], pos: usize, version: Version) -> Option<(Variant, usize)> {
    let header = u32_at(buf, pos).ok()?;
    let body = pos.checked_add(4)?;
    let flag64 = header & FLAG_64 != 0;
    let after = |size: usize| body.checked_add(size);
    Some(match header & 0xFF {
        0 => (Variant::Nil, body),
        1 => (Variant::Bool(u32_at(buf, body).ok()? != 0), after(4)?),
        2 if flag64 => (Variant::Int(u64_at(buf, body).ok()? as i64), after(8)?),
        2 => (Variant::Int(i64::from(u32_at(buf, body).ok()? as i32)), after(4)?),
        3 if flag64 => (Variant::Float(f64::from_bits(u64_at(buf, body).ok()?)), after(8)?),
        3 => (Variant::Float(widen_f32(u32_at(buf, body).ok()?)), after(4)?),
        4 => {
            let (s, end) = read_string(buf, body, version).ok()?;
            let text = match GdString::short_ascii(s.raw_bytes()) {
                Some(text) => text,
                None => string(&s).ok()?,
            };
            (Variant::String(text), end)
        }
        5 => {
            let precision = match (version, flag64) {
                (Version::Godot4, true) => Precision::Double,
                _ => Precision::Single,
            };
            let size = precision.size().checked_mul(2)?;
            let raw = bytes_at(buf, body, size).ok()?;
            (Variant::Vector2(reals(&Reals::<Vector2<f64>>::new(raw, precision))), after(size)?)
        }
        _ => return None,
    })
}
