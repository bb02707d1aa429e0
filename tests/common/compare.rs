//! Comparing descriptions: what the corpora record for information only, the first difference
//! of two values, names for messages.

use super::*;

/// Removes what the corpora record for information only (not on the wire), and rewrites the
/// shapes Godot uses for decoded objects into the shape of [`describe`].
pub fn normalize(value: &Value, version: Version) -> Value {
    match value {
        Value::Object(map) if map.get("summarized") == Some(&json!(true)) => json!(ANY),
        Value::Object(map) => {
            // Godot's decoder turns an object id into an EncodedObjectAsID object.
            if map.get("t") == Some(&json!("Object"))
                && map.get("class") == Some(&json!("EncodedObjectAsID"))
            {
                if let Some(props) = map.get("props").and_then(Value::as_array) {
                    let id = props.iter().find(|p| p[0] == "object_id").map(|p| p[1]["v"].clone());
                    return json!({"t": "Object", "as_id": true, "id": id.expect("object_id")});
                }
            }
            let as_id = map.get("as_id") == Some(&json!(true));
            let rid3 = version == Version::Godot3 && map.get("t") == Some(&json!("RID"));
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let informational = matches!(
                    k.as_str(),
                    "approx" | "layout" | "godot_type" | "godot_elem_class" | "godot_value_class"
                ) || (k == "text" && map.get("t") != Some(&json!("NodePath")))
                    || (k == "class" && as_id)
                    || (k == "id" && rid3);
                if !informational {
                    out.insert(k.clone(), normalize(v, version));
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| normalize(v, version)).collect()),
        other => other.clone(),
    }
}

/// Finds the first place two JSON values differ, as a path, for readable failures.
pub fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let only_in_y = y.keys().filter(|k| !x.contains_key(*k));
            for key in x.keys().chain(only_in_y) {
                match (x.get(key), y.get(key)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = first_difference(u, v, &format!("{path}.{key}")) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some(format!("{path}.{key}: {u:?} vs {v:?}")),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{path}: length {} vs {}", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (u, v))| first_difference(u, v, &format!("{path}[{i}]")))
        }
        _ if a == b || a == ANY || b == ANY => None,
        _ => Some(format!("{path}: {a} vs {b}")),
    }
}

/// The type of a value, for messages.
pub fn type_name(ty: VariantType) -> &'static str {
    ty.name(Version::Godot4)
}

/// Drops full objects' property lists: for a decoded object Godot reports the properties of the
/// instance it built (defaults included, unknown names dropped), not those on the wire. The
/// class is still compared.
pub fn without_props(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| k != "props")
                .map(|(k, v)| (k, without_props(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_props).collect()),
        other => other,
    }
}
