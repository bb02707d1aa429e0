//! A description of decoded values in the corpora's own `expected` JSON shape (floats as exact
//! bit patterns).

use super::*;

fn hex32(bits: u32) -> Value {
    Value::String(format!("{bits:08x}"))
}

fn hex64(bits: u64) -> Value {
    Value::String(format!("{bits:016x}"))
}

/// The f32 bit patterns of a math value, in wire order. Both engines are single-precision
/// builds: a value sent in f64 is stored (and reported) narrowed to f32.
fn reals_f32<V: RealValue>(
    reals: &Reals<'_, V>,
    flatten: impl Fn(V::Single) -> Vec<f32>,
    flatten_double: impl Fn(V) -> Vec<f64>,
) -> Value {
    let components = match reals.get_f32() {
        Some(single) => flatten(single),
        None => flatten_double(reals.get()).into_iter().map(|c| c as f32).collect(),
    };
    Value::Array(components.into_iter().map(|c| hex32(c.to_bits())).collect())
}

/// Components of a math struct in wire order.
macro_rules! components {
    ($value:expr) => {{
        let mut out = Vec::new();
        let _ = $value.map(|c| out.push(c));
        out
    }};
}

fn packed_f32<T: PackedElement>(packed: &Packed<'_, T>, flatten: impl Fn(T) -> Vec<f32>) -> Value {
    Value::Array(
        packed
            .iter()
            .map(|e| Value::Array(flatten(e).into_iter().map(|c| hex32(c.to_bits())).collect()))
            .collect(),
    )
}

/// Packed vectors as f32 bit patterns; f64 elements narrowed as a single-precision build does.
fn packed_reals<S: PackedElement, D: PackedElement>(
    packed: &PackedReals<'_, S, D>,
    flatten: impl Fn(S) -> Vec<f32>,
    flatten_double: impl Fn(D) -> Vec<f64>,
) -> Value {
    match packed {
        PackedReals::Single(p) => packed_f32(p, flatten),
        PackedReals::Double(p) => Value::Array(
            p.iter()
                .map(|e| {
                    let bits = flatten_double(e).into_iter().map(|c| hex32((c as f32).to_bits()));
                    Value::Array(bits.collect())
                })
                .collect(),
        ),
    }
}

/// Matches any value in [`first_difference`]: a Godot 3 NodePath name or `PoolStringArray`
/// element that Rust's `str` cannot hold (surrogates, code points past U+10FFFF), which the
/// probes record as `null`, or a result the probes summarised instead of recording.
pub const ANY: &str = "*any*";

/// Prefix of a typed container's class name or script path in [`describe_marked`].
pub(super) const CLASS_MARK: char = '\u{1}';

/// A name's text as the game reads it, or [`ANY`] for a Godot 3 name `str` cannot hold (the
/// probes record those as `null`).
fn text(s: gdvariant::view::GdStr<'_>) -> Value {
    match s.to_text() {
        Ok(text) => json!(text),
        Err(e) if e.kind() == gdvariant::ErrorKind::NotUnicode => json!(ANY),
        Err(e) => panic!("accepted string fails: {e}"),
    }
}

/// A string as the probes record it: the text the game reads, and the bytes Godot writes back
/// for it (`to_utf8()`); a Godot 3 string `str` cannot hold has no text (`v_unrepresentable`).
fn string(s: gdvariant::view::GdStr<'_>) -> Value {
    let points = s.code_points().unwrap_or_else(|e| panic!("accepted string fails: {e}"));
    let owned = gdvariant::owned::GdString::from_code_points(points).expect("a Godot string");
    let utf8_hex = hex::encode(owned.as_bytes());
    match owned.as_str() {
        Some(text) => json!({"v": text, "utf8_hex": utf8_hex}),
        None => json!({"v": null, "utf8_hex": utf8_hex, "v_unrepresentable": true}),
    }
}

fn container_type(ty: ContainerType<'_>, version: Version) -> (Value, Value) {
    match ty {
        ContainerType::Untyped => (json!("Nil"), json!("")),
        ContainerType::Builtin(t) => (json!(t.name(version)), json!("")),
        // Marked: Godot's decoder replaces it when objects are not allowed (see godot_decoded).
        ContainerType::ClassName(c) | ContainerType::Script(c) => {
            (json!("Object"), json!(format!("{CLASS_MARK}{}", text(c).as_str().unwrap_or(ANY))))
        }
    }
}

/// Describes `value` in the corpora's `expected` shape, without the informational keys.
pub fn describe(value: VariantRef<'_>, version: Version) -> Value {
    strip_markers(describe_marked(value, version))
}

/// Removes the markers of [`describe_marked`]: `null_object` on null objects (the corpora
/// describe them as `Nil`, but they are not the same dictionary key as `Nil`) and the prefix of
/// typed-container class names.
pub fn strip_markers(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "null_object")
                .map(|(k, v)| (k, strip_markers(v)))
                .collect(),
        ),
        Value::String(s) if s.starts_with(CLASS_MARK) => {
            Value::String(s.trim_start_matches(CLASS_MARK).to_owned())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(strip_markers).collect()),
        other => other,
    }
}

/// [`describe`], with null objects marked.
pub fn describe_marked(value: VariantRef<'_>, version: Version) -> Value {
    let t = value.variant_type().name(version);
    let mut out = match value {
        VariantRef::Nil => json!({"t": "Nil"}),
        VariantRef::Object(ObjectRef::Null) => json!({"t": "Nil", "null_object": true}),
        VariantRef::Bool(b) => json!({"v": b}),
        VariantRef::Int(i) => json!({"v": i}),
        VariantRef::Float(f) => json!({"f64": hex64(f.to_bits())}),
        VariantRef::String(s) | VariantRef::StringName(s) => string(s),
        VariantRef::Vector2(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Rect2(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Vector3(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Transform2D(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Vector4(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Plane(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Quaternion(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Aabb(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Basis(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Transform3D(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Projection(v) => {
            json!({"f32": reals_f32(&v, |v| components!(v), |v| components!(v))})
        }
        VariantRef::Vector2i(v) => json!({"i32": components!(v)}),
        VariantRef::Rect2i(v) => json!({"i32": components!(v)}),
        VariantRef::Vector3i(v) => json!({"i32": components!(v)}),
        VariantRef::Vector4i(v) => json!({"i32": components!(v)}),
        VariantRef::Color(c) => {
            json!({"f32": components!(c).into_iter().map(|c: f32| hex32(c.to_bits())).collect::<Vec<_>>()})
        }
        VariantRef::NodePath(p) => {
            let names: Vec<Value> = p.names().map(|n| text(n.unwrap())).collect();
            let subnames: Vec<Value> = p.subnames().map(|n| text(n.unwrap())).collect();
            let path_text = p.to_text().map(Value::String).unwrap_or_else(|_| json!(ANY));
            json!({"absolute": p.is_absolute(), "names": names, "subnames": subnames, "text": path_text})
        }
        VariantRef::Rid(id) => match version {
            // Godot 3 writes no id; the manifest's id is not on the wire.
            Version::Godot3 => json!({}),
            Version::Godot4 => json!({"id": id.expect("a Godot 4 RID has an id")}),
        },
        VariantRef::Object(ObjectRef::Id(id)) => json!({"as_id": true, "id": id as i64}),
        VariantRef::Object(ObjectRef::Full(object)) => {
            let props: Vec<Value> = object
                .properties()
                .map(|p| {
                    let (name, value) = p.unwrap();
                    json!([text(name), describe_marked(value.value(), version)])
                })
                .collect();
            json!({"class": text(object.class_name()), "props": props})
        }
        VariantRef::Callable => json!({}),
        VariantRef::Signal(s) => {
            json!({"name": text(s.name()), "object_id": s.object_id() as i64})
        }
        VariantRef::Dictionary(d) => {
            let entries: Vec<Value> = d
                .iter()
                .map(|e| {
                    let (k, v) = e.unwrap();
                    json!([describe_marked(k, version), describe_marked(v, version)])
                })
                .collect();
            let mut out = json!({"entries": entries});
            let (kt, vt) = (d.key_type().unwrap(), d.value_type().unwrap());
            if kt != ContainerType::Untyped || vt != ContainerType::Untyped {
                let (key_type, key_class) = container_type(kt, version);
                let (value_type, value_class) = container_type(vt, version);
                out["key_type"] = key_type;
                out["key_class"] = key_class;
                out["value_type"] = value_type;
                out["value_class"] = value_class;
            }
            out
        }
        VariantRef::Array(a) => {
            let items: Vec<Value> =
                a.iter().map(|v| describe_marked(v.unwrap(), version)).collect();
            let mut out = json!({"items": items});
            let et = a.element_type().unwrap();
            if et != ContainerType::Untyped {
                let (elem_type, elem_class) = container_type(et, version);
                out["elem_type"] = elem_type;
                out["elem_class"] = elem_class;
            }
            out
        }
        VariantRef::PackedByteArray(b) => json!({"len": b.len(), "hex": hex::encode(b)}),
        VariantRef::PackedInt32Array(p) => json!({"v": p.iter().collect::<Vec<_>>()}),
        VariantRef::PackedInt64Array(p) => json!({"v": p.iter().collect::<Vec<_>>()}),
        VariantRef::PackedFloat32Array(p) => {
            json!({"f32": p.iter().map(|f| hex32(f.to_bits())).collect::<Vec<_>>()})
        }
        VariantRef::PackedFloat64Array(p) => {
            json!({"f64": p.iter().map(|f| hex64(f.to_bits())).collect::<Vec<_>>()})
        }
        VariantRef::PackedStringArray(p) => {
            json!({"v": p.iter().map(|s| text(s.unwrap())).collect::<Vec<_>>()})
        }
        VariantRef::PackedVector2Array(p) => {
            json!({"f32": packed_reals(&p, |v| components!(v), |v| components!(v))})
        }
        VariantRef::PackedVector3Array(p) => {
            json!({"f32": packed_reals(&p, |v| components!(v), |v| components!(v))})
        }
        VariantRef::PackedVector4Array(p) => {
            json!({"f32": packed_reals(&p, |v| components!(v), |v| components!(v))})
        }
        VariantRef::PackedColorArray(p) => json!({"f32": packed_f32(&p, |v| components!(v))}),
        other => panic!("no description for {:?}", other.variant_type()),
    };
    if !out.is_object() {
        return out;
    }
    if out.get("t").is_none() {
        out["t"] = json!(t);
    }
    out
}
