//! Running the binary, reading the corpora, and reading the JSON output back into the corpora's
//! `expected` shape.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{Map, Value, json};

/// Both corpora, with the `--godot` argument for each.
pub const VERSIONS: [(&str, &str); 2] = [("godot3", "3"), ("godot4", "4")];

/// `corpus/NAME` (the repository's corpus directory).
pub fn corpus_dir(version: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus").join(version)
}

/// `cli/tests/golden/NAME`.
pub fn golden_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(kind)
}

/// Parses JSON with no recursion limit.
pub fn parse_json(text: &str) -> Value {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut deserializer).expect("valid JSON")
}

/// The lines of a JSON Lines file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter(|l| !l.trim().is_empty()).map(parse_json).collect()
}

/// A corpus's manifest.
pub fn manifest(version: &str) -> Vec<Value> {
    read_jsonl(&corpus_dir(version).join("manifest.jsonl"))
}

/// The single-value cases of a manifest (not streams, not the large benchmark cases, not the
/// case Godot failed to encode).
pub fn value_cases(version: &str) -> Vec<Value> {
    manifest(version)
        .into_iter()
        .filter(|c| matches!(c["kind"].as_str(), Some("var_to_bytes" | "var2bytes")))
        .filter(|c| c.get("expected").is_some())
        .filter(|c| c["encode_failed"] != true)
        .collect()
}

/// `corpus/VERSION/NAME.bin`.
pub fn case_file(version: &str, name: &str) -> PathBuf {
    corpus_dir(version).join(format!("{name}.bin"))
}

/// Runs `gdvariant ARGS`, with `stdin` as standard input.
pub fn run_with_input<S: AsRef<std::ffi::OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // The command may exit before reading everything.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// Runs `gdvariant ARGS` with empty standard input.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    run_with_input(args, &[])
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// The exit code.
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed by a signal")
}

/// The `--allow-objects` argument when a case needs it.
pub fn objects_args(case: &Value) -> Vec<&'static str> {
    let full = case["full_objects"] == true || case["allow_objects"] == true;
    if full { vec!["--allow-objects"] } else { vec![] }
}

/// Godot 3 type names as Godot 4 spells them.
pub fn godot4_name(name: &str) -> &str {
    match name {
        "Quat" => "Quaternion",
        "Transform" => "Transform3D",
        "PoolByteArray" => "PackedByteArray",
        "PoolIntArray" => "PackedInt32Array",
        "PoolRealArray" => "PackedFloat32Array",
        "PoolStringArray" => "PackedStringArray",
        "PoolVector2Array" => "PackedVector2Array",
        "PoolVector3Array" => "PackedVector3Array",
        "PoolColorArray" => "PackedColorArray",
        other => other,
    }
}

fn hex32(value: &Value) -> Option<Value> {
    let bits = match value {
        Value::Number(n) => (n.as_f64()? as f32).to_bits(),
        Value::String(s) => parse_nonfinite(s, 8)? as u32,
        _ => return None,
    };
    Some(Value::String(format!("{bits:08x}")))
}

fn hex64(value: &Value) -> Option<Value> {
    let bits = match value {
        Value::Number(n) => n.as_f64()?.to_bits(),
        Value::String(s) => parse_nonfinite(s, 16)?,
        _ => return None,
    };
    Some(Value::String(format!("{bits:016x}")))
}

/// The bits of `"inf"`, `"-inf"`, `"nan"` or `"nan:<hex>"` for a real of `digits` hex digits.
fn parse_nonfinite(text: &str, digits: usize) -> Option<u64> {
    let wide = digits == 16;
    Some(match text {
        "inf" if wide => f64::INFINITY.to_bits(),
        "-inf" if wide => f64::NEG_INFINITY.to_bits(),
        "nan" if wide => 0x7ff8_0000_0000_0000,
        "inf" => u64::from(f32::INFINITY.to_bits()),
        "-inf" => u64::from(f32::NEG_INFINITY.to_bits()),
        "nan" => 0x7fc0_0000,
        _ => u64::from_str_radix(text.strip_prefix("nan:")?, 16).ok()?,
    })
}

fn list(value: &Value, f: impl Fn(&Value) -> Option<Value>) -> Option<Value> {
    value.as_array()?.iter().map(f).collect::<Option<Vec<_>>>().map(Value::Array)
}

fn object(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect::<Map<_, _>>())
}

/// Reads `gdvariant`'s JSON back into the corpora's `expected` shape (Godot 4 type names).
/// `None` for what that shape cannot express here (full objects, non-Unicode strings, f64
/// reals).
pub fn to_expected(value: &Value) -> Option<Value> {
    Some(match value {
        Value::Null => json!({"t": "Nil"}),
        Value::Bool(b) => json!({"t": "bool", "v": b}),
        Value::Number(n) if n.is_i64() => json!({"t": "int", "v": n}),
        Value::Number(_) => json!({"t": "float", "f64": hex64(value)?}),
        Value::String(s) => json!({"t": "String", "v": s}),
        Value::Array(items) => {
            json!({"t": "Array", "items": items.iter().map(to_expected).collect::<Option<Vec<_>>>()?})
        }
        Value::Object(map) => tagged(map)?,
    })
}

fn tagged(map: &Map<String, Value>) -> Option<Value> {
    let t = map.get("type")?.as_str()?;
    if map.get("precision").is_some() || map.get("bytes").is_some() {
        return None;
    }
    let v = map.get("value");
    let field = |name: &str| map.get(name).cloned();
    Some(match t {
        "float" => json!({"t": "float", "f64": hex64(v?)?}),
        "StringName" => json!({"t": t, "v": v?}),
        "Array" => json!({"t": t, "items": list(v?, to_expected)?}),
        "Dictionary" => {
            let entries = list(map.get("entries")?, |pair| {
                let pair = pair.as_array()?;
                Some(json!([to_expected(pair.first()?)?, to_expected(pair.get(1)?)?]))
            })?;
            json!({"t": t, "entries": entries})
        }
        "Vector2" | "Rect2" | "Vector3" | "Transform2D" | "Vector4" | "Plane" | "Quaternion"
        | "AABB" | "Basis" | "Transform3D" | "Projection" | "Color" | "PackedFloat32Array" => {
            json!({"t": t, "f32": list(v?, hex32)?})
        }
        "PackedFloat64Array" => json!({"t": t, "f64": list(v?, hex64)?}),
        "Vector2i" | "Rect2i" | "Vector3i" | "Vector4i" => json!({"t": t, "i32": v?}),
        "PackedVector2Array" | "PackedVector3Array" | "PackedVector4Array" | "PackedColorArray" => {
            json!({"t": t, "f32": list(v?, |e| list(e, hex32))?})
        }
        "PackedInt32Array" | "PackedInt64Array" | "PackedStringArray" => {
            json!({"t": t, "v": v?})
        }
        "PackedByteArray" => json!({"t": t, "hex": v?}),
        "NodePath" => object(vec![
            ("t", json!(t)),
            ("absolute", field("absolute")?),
            ("names", field("names")?),
            ("subnames", field("subnames")?),
        ]),
        // Godot 3 writes no id (the engine's id is not on the wire).
        "RID" => json!({"t": t, "id": v?}),
        "Callable" => json!({"t": t}),
        "Signal" => {
            let object_id = field("object_id")?.as_u64()? as i64;
            json!({"t": t, "name": field("name")?, "object_id": object_id})
        }
        "Object" => match map.get("id") {
            // Godot 4 reports ids as signed 64-bit numbers.
            Some(id) => json!({"t": t, "id": id.as_u64()? as i64}),
            None => return None,
        },
        _ => return None,
    })
}

/// Whether `mine` agrees with `expected`: every field of `mine` is in `expected` with an equal
/// value (Godot 3 type names read as Godot 4's); lists element by element.
pub fn agrees(mine: &Value, expected: &Value) -> bool {
    match (mine, expected) {
        (Value::Object(a), Value::Object(b)) => a.iter().all(|(key, value)| {
            let Some(other) = b.get(key) else { return false };
            if key == "t" {
                return value.as_str() == other.as_str().map(godot4_name);
            }
            agrees(value, other)
        }),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| agrees(x, y))
        }
        (Value::Number(a), Value::Number(b)) => {
            a.as_f64() == b.as_f64() && a.as_i64() == b.as_i64()
        }
        (a, b) => a == b,
    }
}

/// A fresh, empty folder for one test.
pub fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gdvariant-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in a folder, sorted.
pub fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
