//! Shared test support: the real-engine corpora, and a description of decoded values in the
//! corpora's own `expected` JSON shape, so values are compared field by field with what Godot
//! reported (floats as exact bit patterns).
#![allow(
    dead_code,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[cfg(feature = "work-counter")]
pub mod work;

use std::path::{Path, PathBuf};

use gdvariant::math::RealValue;
use gdvariant::packed::PackedElement;
use gdvariant::{
    Options, VariantRef, VariantType, Version, math::Reals, packed::Packed, packed::PackedReals,
    view::ContainerType, view::ObjectRef,
};
use serde_json::{Value, json};

/// `corpus/godot3` or `corpus/godot4`.
pub fn corpus_dir(version: Version) -> PathBuf {
    let name = match version {
        Version::Godot3 => "godot3",
        Version::Godot4 => "godot4",
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(name)
}

/// The `.bin` files of `corpus/godot{3,4}` of at most `max_len` bytes, sorted by name.
pub fn corpus_files(version: Version, max_len: u64) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir(version))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .filter(|p| std::fs::metadata(p).unwrap().len() <= max_len)
        .collect();
    files.sort();
    files
}

/// The bytes of corpus case `name` (`corpus/godot{3,4}/NAME.bin`).
pub fn corpus(version: Version, name: &str) -> Vec<u8> {
    let path = corpus_dir(version).join(format!("{name}.bin"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// 0 for Godot 3, 1 for Godot 4 (for per-version tables).
fn version_index(version: Version) -> usize {
    match version {
        Version::Godot3 => 0,
        Version::Godot4 => 1,
    }
}

/// The manifest entry of corpus case `name`. Only that entry's line is parsed (parsing the
/// whole manifest takes half a minute under Miri).
pub fn manifest_case(version: Version, name: &str) -> Value {
    static LINES: [std::sync::OnceLock<std::collections::HashMap<String, String>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let lines = LINES[version_index(version)].get_or_init(|| {
        let path = corpus_dir(version).join("manifest.jsonl");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name_of = |line: &str| -> String {
            // Every entry starts with its name; anything else is parsed.
            let quick = line.strip_prefix("{\"name\":").map(str::trim_start);
            match quick.and_then(|rest| rest.strip_prefix('"')?.split_once('"')) {
                Some((name, _)) if !name.contains('\\') => name.to_owned(),
                _ => parse_json(line)["name"].as_str().unwrap_or_default().to_owned(),
            }
        };
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| (name_of(line), line.to_owned()))
            .collect()
    });
    let case = parse_json(lines.get(name).unwrap_or_else(|| panic!("{name} not in the manifest")));
    assert_eq!(case["name"], name);
    case
}

/// Parses a JSON Lines file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(parse_json).collect()
}

/// Parses JSON with no recursion limit (the corpus nests 1000 deep).
pub fn parse_json(text: &str) -> Value {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut deserializer).expect("valid JSON")
}

/// The manifest entries of a corpus.
pub fn manifest(version: Version) -> Vec<Value> {
    manifest_cached(version).to_vec()
}

/// The manifest entries of a corpus, read and parsed once per test binary.
fn manifest_cached(version: Version) -> &'static [Value] {
    static MANIFESTS: [std::sync::OnceLock<Vec<Value>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    MANIFESTS[version_index(version)]
        .get_or_init(|| read_jsonl(&corpus_dir(version).join("manifest.jsonl")))
}

/// Whether a corpus case is left out under Miri: the `large_*` cases (hundreds of kilobytes to
/// a megabyte each) take minutes apiece to interpret; every other case runs. Always `false`
/// outside Miri.
pub fn miri_skips(name: &str) -> bool {
    cfg!(miri) && name.starts_with("large_")
}

/// Under Miri, a sample of the corpus for tests that compare each case with Godot's JSON
/// description (over a second a case when interpreted): the first case of each type of each
/// version, `large_*` cases left out. Outside Miri every case is kept.
#[derive(Default)]
pub struct MiriSample {
    seen: std::collections::HashSet<(usize, String)>,
}

impl MiriSample {
    /// Whether to leave `case` (a manifest entry of `version`) out.
    pub fn skips(&mut self, version: Version, case: &Value) -> bool {
        if !cfg!(miri) {
            return false;
        }
        let name = case["name"].as_str().unwrap_or_default();
        let ty = case["type"].as_str().unwrap_or_default().to_owned();
        miri_skips(name) || !self.seen.insert((version_index(version), ty))
    }
}

/// A case's expected value: inline, or from its `expected_file` (stored gzipped when large).
pub fn expected_value(version: Version, case: &Value) -> Value {
    if let Some(expected) = case.get("expected") {
        return expected.clone();
    }
    let file = case["expected_file"].as_str().expect("expected or expected_file");
    let dir = corpus_dir(version);
    let plain = dir.join(file);
    if plain.exists() {
        return parse_json(&std::fs::read_to_string(plain).unwrap());
    }
    let gz = dir.join(format!("{file}.gz"));
    let mut text = String::new();
    let file = std::fs::File::open(&gz).unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text).unwrap();
    parse_json(&text)
}

/// Runs `f` on a thread with a large stack (deeply nested cases recurse in these helpers).
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(512 << 20).spawn(f).unwrap().join().unwrap()
}

/// Options for a case with its `allow_objects` / `full_objects` flag.
pub fn options_for(version: Version, allow_objects: bool) -> Options {
    Options::new(version).with_allow_objects(allow_objects)
}

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
const CLASS_MARK: char = '\u{1}';

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

/// Decodes a hex string.
pub fn unhex(text: &str) -> Vec<u8> {
    hex::decode(text).expect("hex")
}

/// The type of a value, for messages.
pub fn type_name(ty: VariantType) -> &'static str {
    ty.name(Version::Godot4)
}

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
