//! Godot's own rules on described values: its verdicts on crafted inputs, what its decoder
//! builds, its dictionary-key equality, and the NodePath padding it leaves uninitialised.

use super::*;

/// Feeds a crafted input and compares with Godot's verdict; returns a failure.
pub fn check_verdict(version: Version, case: &Value) -> Option<String> {
    let name = case["name"].as_str().unwrap();
    let bytes = unhex(case["input_hex"].as_str().unwrap());
    let options = options_for(version, case["allow_objects"] == true);
    let verdict = gdvariant::validate(&bytes, options);
    match (case["accepted"] == true, verdict) {
        (true, Ok(())) => {
            let value = gdvariant::parse(&bytes, options).unwrap();
            let decoded =
                godot_decoded(describe_marked(value, version), version, options.allow_objects());
            let ours = without_props(strip_markers(decoded));
            let theirs = without_props(normalize(&case["result"], version));
            first_difference(&ours, &theirs, name)
        }
        (true, Err(e)) => Some(format!("{name}: Godot accepts, we reject: {e}")),
        (false, Ok(())) => {
            Some(format!("{name}: Godot rejects ({}), we accept", case["godot_error"]))
        }
        (false, Err(e)) => {
            let ours = e.godot_error(version).map(|g| g.name());
            let theirs = case["godot_error"].as_str();
            // "FAILED": Godot logged an error without a code.
            if ours != theirs && theirs != Some("FAILED") {
                return Some(format!("{name}: error {ours:?} ({e}), Godot {theirs:?}"));
            }
            if e.offset() > bytes.len() {
                return Some(format!("{name}: error offset {} past the input", e.offset()));
            }
            None
        }
    }
}

/// What Godot's decoder builds from the wire value described by `value`: a dictionary keeps one
/// entry per key (the first key and position, the last value), by Godot's key equality; without
/// `allow_objects`, a typed container's class or script becomes `"EncodedObjectAsID"`.
pub fn godot_decoded(value: Value, version: Version, allow_objects: bool) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("entries", Value::Array(entries)) => {
                        let mut kept: Vec<Value> = Vec::new();
                        for entry in entries {
                            let entry = godot_decoded(entry, version, allow_objects);
                            match kept.iter_mut().find(|k| same_key(&k[0], &entry[0], version)) {
                                Some(existing) => existing[1] = entry[1].clone(),
                                None => kept.push(entry),
                            }
                        }
                        (k, Value::Array(kept))
                    }
                    ("elem_class" | "key_class" | "value_class", Value::String(class))
                        if class.starts_with(CLASS_MARK) =>
                    {
                        let class = if allow_objects {
                            class
                        } else {
                            format!("{CLASS_MARK}EncodedObjectAsID")
                        };
                        (k, Value::String(class))
                    }
                    (_, v) => (k, godot_decoded(v, version, allow_objects)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items.into_iter().map(|v| godot_decoded(v, version, allow_objects)).collect(),
        ),
        other => other,
    }
}

/// Godot's dictionary-key equality on two described values: same type (String and StringName
/// are one in Godot 4), floats equal by `==` or both NaN, containers element by element; Godot 3
/// compares dictionaries by reference, and object ids always make new objects.
pub fn same_key(a: &Value, b: &Value, version: Version) -> bool {
    let string_like = |t: &Value| t == "String" || t == "StringName";
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let (tx, ty) = (&x["t"], &y["t"]);
            let same_type =
                tx == ty || (version == Version::Godot4 && string_like(tx) && string_like(ty));
            if !same_type {
                return false;
            }
            if x.get("as_id").is_some() || (tx == "Dictionary" && version == Version::Godot3) {
                return false;
            }
            if string_like(tx) {
                return x["utf8_hex"] == y["utf8_hex"];
            }
            if x.get("null_object") != y.get("null_object") {
                return false;
            }
            x.iter().all(|(k, u)| k == "t" || y.get(k).is_some_and(|v| same_key(u, v, version)))
                && x.len() == y.len()
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(u, v)| same_key(u, v, version))
        }
        (Value::String(x), Value::String(y)) if x.len() == 16 && y.len() == 16 => float_key_eq(
            f64::from_bits(u64::from_str_radix(x, 16).unwrap_or(0)),
            f64::from_bits(u64::from_str_radix(y, 16).unwrap_or(1)),
        ),
        (Value::String(x), Value::String(y)) if x.len() == 8 && y.len() == 8 => {
            let f = |s: &str| f32::from_bits(u32::from_str_radix(s, 16).unwrap_or(0));
            float_key_eq(f64::from(f(x)), f64::from(f(y)))
        }
        _ => a == b,
    }
}

fn float_key_eq(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// The absolute ranges of NodePath string padding anywhere in `value` (Godot leaves those bytes
/// uninitialised, so they are never compared).
#[allow(clippy::arithmetic_side_effects)]
pub fn node_path_padding(value: VariantRef<'_>, out: &mut Vec<std::ops::Range<usize>>) {
    match value {
        VariantRef::NodePath(path) => {
            for s in path.names().chain(path.subnames()) {
                let s = s.unwrap();
                let end = s.offset() + s.raw_bytes().len();
                out.push(end..end + (4 - s.raw_bytes().len() % 4) % 4);
            }
        }
        VariantRef::Array(array) => {
            array.iter().for_each(|e| node_path_padding(e.unwrap(), out));
        }
        VariantRef::Dictionary(dictionary) => {
            for entry in dictionary.iter() {
                let (key, value) = entry.unwrap();
                node_path_padding(key, out);
                node_path_padding(value, out);
            }
        }
        VariantRef::Object(gdvariant::view::ObjectRef::Full(object)) => {
            for property in object.properties() {
                node_path_padding(property.unwrap().1.value(), out);
            }
        }
        _ => {}
    }
}

/// `bytes` with the padding of every NodePath string set to zero.
pub fn with_zeroed_node_path_padding(bytes: &[u8], options: Options) -> Vec<u8> {
    let mut ranges = Vec::new();
    node_path_padding(gdvariant::parse(bytes, options).unwrap(), &mut ranges);
    let mut out = bytes.to_vec();
    for range in ranges {
        out[range].fill(0);
    }
    out
}
