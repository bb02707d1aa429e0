//! Every value case, built from Godot's description of it (its `expected` JSON).

use super::*;

/// The type `version` names `name`.
fn type_named(version: Version, name: &str) -> VariantType {
    (0..=255)
        .filter_map(|id| VariantType::from_id(version, id))
        .find(|t| t.name(version) == name)
        .unwrap_or_else(|| panic!("no type {name}"))
}

fn bits32(value: &Value) -> f32 {
    f32::from_bits(u32::from_str_radix(value.as_str().unwrap(), 16).unwrap())
}

fn bits64(value: &Value) -> f64 {
    f64::from_bits(u64::from_str_radix(value.as_str().unwrap(), 16).unwrap())
}

fn text_of(value: &Value) -> String {
    String::from_utf8(unhex(value["utf8_hex"].as_str().unwrap())).unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect()
}

/// A math struct filled in wire order from Godot's `f32` (or `i32`) components.
macro_rules! filled {
    ($ty:ident, $components:expr) => {{
        let mut components = $components.into_iter();
        let value = $ty::<u8>::default().map(|_| components.next().expect("enough components"));
        assert!(components.next().is_none(), "too many components");
        value
    }};
}

fn f32s(value: &Value) -> Vec<f32> {
    value.as_array().unwrap().iter().map(bits32).collect()
}

fn i32s(value: &Value) -> Vec<i32> {
    value.as_array().unwrap().iter().map(|v| i32::try_from(v.as_i64().unwrap()).unwrap()).collect()
}

/// The element type a description gives under `ty` / `class` (`godot_class` is the class the
/// program declared, where the corpus recorded it apart from what the wire holds).
fn element_type<'v>(
    value: &'v Value,
    ty: &str,
    class: &str,
    godot_class: &str,
    version: Version,
) -> ElementType<&'v str> {
    match value.get(ty).and_then(Value::as_str) {
        None | Some("Nil") => ElementType::Untyped,
        Some("Object") => {
            let class = value.get(godot_class).unwrap_or(&value[class]);
            ElementType::ClassName(class.as_str().unwrap())
        }
        Some(name) => ElementType::Builtin(type_named(version, name)),
    }
}

/// Writes the value Godot described as `value`.
fn build(w: &mut W, value: &Value, version: Version) -> Step {
    use VariantType as T;
    let ty = type_named(version, value["t"].as_str().unwrap());
    match ty {
        T::Nil if value.get("godot_type").is_some() => w.null_object(),
        T::Nil => w.nil(),
        T::Bool => w.bool(value["v"].as_bool().unwrap()),
        T::Int => w.int(value["v"].as_i64().unwrap()),
        T::Float => w.float(bits64(&value["f64"])),
        T::String => w.string(&text_of(value)),
        T::StringName => w.string_name(&text_of(value)),
        T::Vector2 => w.vector2(filled!(Vector2, f32s(&value["f32"]))),
        T::Rect2 => w.rect2(filled!(Rect2, f32s(&value["f32"]))),
        T::Vector3 => w.vector3(filled!(Vector3, f32s(&value["f32"]))),
        T::Transform2D => w.transform2d(filled!(Transform2D, f32s(&value["f32"]))),
        T::Vector4 => w.vector4(filled!(Vector4, f32s(&value["f32"]))),
        T::Plane => w.plane(filled!(Plane, f32s(&value["f32"]))),
        T::Quaternion => w.quaternion(filled!(Quaternion, f32s(&value["f32"]))),
        T::Aabb => w.aabb(filled!(Aabb, f32s(&value["f32"]))),
        T::Basis => w.basis(filled!(Basis, f32s(&value["f32"]))),
        T::Transform3D => w.transform3d(filled!(Transform3D, f32s(&value["f32"]))),
        T::Projection => w.projection(filled!(Projection, f32s(&value["f32"]))),
        T::Color => w.color(filled!(Color, f32s(&value["f32"]))),
        T::Vector2i => w.vector2i(filled!(Vector2, i32s(&value["i32"]))),
        T::Rect2i => w.rect2i(filled!(Rect2, i32s(&value["i32"]))),
        T::Vector3i => w.vector3i(filled!(Vector3, i32s(&value["i32"]))),
        T::Vector4i => w.vector4i(filled!(Vector4, i32s(&value["i32"]))),
        T::NodePath => {
            let (names, subnames) = (strings(&value["names"]), strings(&value["subnames"]));
            let absolute = value["absolute"].as_bool().unwrap();
            w.node_path(
                absolute,
                names.iter().map(String::as_str),
                subnames.iter().map(String::as_str),
            )
        }
        T::Rid => w.rid(value.get("id").and_then(Value::as_u64).unwrap_or(0)),
        T::Object if value.get("as_id") == Some(&Value::Bool(true)) => {
            w.object_id(value["id"].as_i64().unwrap() as u64)
        }
        T::Object => {
            let props = value["props"].as_array().unwrap();
            w.begin_object(value["class"].as_str().unwrap(), u32::try_from(props.len()).unwrap())?;
            for property in props {
                w.property_name(property[0].as_str().unwrap())?;
                build(w, &property[1], version)?;
            }
            Ok(())
        }
        T::Callable => w.callable(),
        T::Signal => {
            w.signal(value["name"].as_str().unwrap(), value["object_id"].as_i64().unwrap() as u64)
        }
        T::Dictionary => {
            let entries = value["entries"].as_array().unwrap();
            let key = element_type(value, "key_type", "key_class", "godot_key_class", version);
            let val =
                element_type(value, "value_type", "value_class", "godot_value_class", version);
            w.begin_typed_dictionary(key, val, entries.len())?;
            for entry in entries {
                build(w, &entry[0], version)?;
                build(w, &entry[1], version)?;
            }
            Ok(())
        }
        T::Array => {
            let items = value["items"].as_array().unwrap();
            let elements =
                element_type(value, "elem_type", "elem_class", "godot_elem_class", version);
            w.begin_typed_array(elements, items.len())?;
            items.iter().try_for_each(|item| build(w, item, version))
        }
        T::PackedByteArray => w.packed_bytes(&unhex(value["hex"].as_str().unwrap())),
        T::PackedInt32Array => w.packed_int32(&i32s(&value["v"])),
        T::PackedInt64Array => {
            let values: Vec<i64> =
                value["v"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
            w.packed_int64(&values)
        }
        T::PackedFloat32Array => w.packed_float32(&f32s(&value["f32"])),
        T::PackedFloat64Array => {
            let values: Vec<f64> = value["f64"].as_array().unwrap().iter().map(bits64).collect();
            w.packed_float64(&values)
        }
        T::PackedStringArray => {
            let values = strings(&value["v"]);
            w.packed_strings(values.iter().map(String::as_str))
        }
        T::PackedVector2Array => {
            let values: Vec<Vector2<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector2, f32s(v)))
                .collect();
            w.packed_vector2(&values)
        }
        T::PackedVector3Array => {
            let values: Vec<Vector3<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector3, f32s(v)))
                .collect();
            w.packed_vector3(&values)
        }
        T::PackedVector4Array => {
            let values: Vec<Vector4<f32>> = value["f32"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| filled!(Vector4, f32s(v)))
                .collect();
            w.packed_vector4(&values)
        }
        T::PackedColorArray => {
            let values: Vec<Color<f32>> =
                value["f32"].as_array().unwrap().iter().map(|v| filled!(Color, f32s(v))).collect();
            w.packed_colors(&values)
        }
        other => panic!("no builder for {other:?}"),
    }
}

/// Whether a description holds a part the corpus summarised or could not represent.
fn incomplete(value: &Value) -> bool {
    match value {
        Value::Object(map) => {
            map.contains_key("summarized")
                || map.contains_key("v_unrepresentable")
                || map.values().any(incomplete)
        }
        Value::Array(items) => items.iter().any(incomplete),
        _ => false,
    }
}

#[test]
fn every_value_case_built_from_godots_description_gives_godots_bytes() {
    let built = with_big_stack(|| {
        let mut built = 0;
        for version in VERSIONS {
            for case in manifest(version) {
                if !matches!(case["kind"].as_str(), Some("var2bytes" | "var_to_bytes"))
                    || case["encode_failed"] == Value::Bool(true)
                {
                    continue;
                }
                let name = case["name"].as_str().unwrap();
                let expected = expected_value(version, &case);
                assert!(!incomplete(&expected), "{version:?} {name}: description incomplete");
                let full = case["full_objects"] == Value::Bool(true);
                assert_case(version, name, full, |w| build(w, &expected, version));
                built += 1;
            }
        }
        built
    });
    // Every value case of both corpora: 301 at the time of writing.
    assert!(built >= 301, "only {built} cases built");
}
