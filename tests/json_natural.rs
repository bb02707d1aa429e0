//! Natural JSON (`gdvariant::json::write_natural_json`) against the lossless writer: on every
//! value of both engines' corpora, the natural form equals the lossless form put through the
//! documented mapping (an independent transcription of the module docs' table, written here
//! over `serde_json` values), and is valid JSON.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::*;
use gdvariant::json::{FieldKind, math_fields, to_json, to_natural_json};
use gdvariant::{Options, VariantType, Version};
use serde_json::{Map, Value, json};

/// The Godot 4 type of a lossless tag.
fn type_named(name: &str) -> Option<VariantType> {
    (0..39)
        .filter_map(|id| VariantType::from_id(Version::Godot4, id))
        .find(|t| t.name(Version::Godot4) == name)
}

/// A real of the lossless form in the natural form.
fn real(value: &Value) -> Value {
    match value.as_str() {
        Some("inf") => json!("Infinity"),
        Some("-inf") => json!("-Infinity"),
        Some(s) if s.starts_with("nan") => json!("NaN"),
        _ => value.clone(),
    }
}

/// Components in wire order, named by `math_fields`.
fn named(ty: VariantType, components: &[Value]) -> Value {
    fn group(fields: &[gdvariant::json::Field], components: &[Value]) -> Value {
        let mut object = Map::new();
        for field in fields {
            let value = match field.kind {
                FieldKind::Component(i) => real(&components[i]),
                FieldKind::Group(inner) => group(inner, components),
            };
            object.insert(field.name.to_owned(), value);
        }
        Value::Object(object)
    }
    group(math_fields(ty).unwrap(), components)
}

fn base64(bytes: &[u8]) -> String {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                alphabet[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

/// A lossless string form (`"a"` or `{"bytes": hex}`) as natural text.
fn text(value: &Value) -> Value {
    match value {
        Value::Object(o) => {
            let bytes = hex::decode(o["bytes"].as_str().unwrap()).unwrap();
            json!(String::from_utf8_lossy(&bytes))
        }
        other => other.clone(),
    }
}

/// The natural form of a lossless JSON value, by the module docs' table.
fn natural(lossless: &Value) -> Value {
    let Value::Object(o) = lossless else {
        return match lossless {
            Value::Array(items) => Value::Array(items.iter().map(natural).collect()),
            other => other.clone(),
        };
    };
    let tag = o["type"].as_str().unwrap();
    let ty = type_named(tag);
    match tag {
        "float" => real(&o["value"]),
        "String" | "StringName" => match o.get("value") {
            Some(v) => v.clone(),
            None => text(&json!({"bytes": o["bytes"]})),
        },
        "Array" => natural(&o["value"]),
        "Dictionary" => {
            let mut object = Map::new();
            for entry in o["entries"].as_array().unwrap() {
                object.insert(key(&entry[0]), natural(&entry[1]));
            }
            Value::Object(object)
        }
        "NodePath" => {
            let names: Vec<String> = o["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| text(n).as_str().unwrap().to_owned())
                .collect();
            let mut path =
                if o["absolute"] == json!(true) { "/".to_owned() } else { String::new() };
            path.push_str(&names.join("/"));
            for sub in o["subnames"].as_array().unwrap() {
                path.push(':');
                path.push_str(text(sub).as_str().unwrap());
            }
            json!(path)
        }
        "RID" => o.get("value").cloned().unwrap_or(Value::Null),
        "Callable" => Value::Null,
        "Signal" => json!({"name": text(&o["name"]), "object_id": o["object_id"]}),
        "Object" => {
            if let Some(id) = o.get("id") {
                json!({"id": id})
            } else if let Some(class) = o.get("class") {
                let mut properties = Map::new();
                for p in o["properties"].as_array().unwrap() {
                    properties.insert(text(&p[0]).as_str().unwrap().to_owned(), natural(&p[1]));
                }
                json!({"class": text(class), "properties": properties})
            } else {
                Value::Null
            }
        }
        "PackedByteArray" => json!(base64(&hex::decode(o["value"].as_str().unwrap()).unwrap())),
        "PackedStringArray" => {
            Value::Array(o["value"].as_array().unwrap().iter().map(text).collect())
        }
        "PackedInt32Array" | "PackedInt64Array" | "PackedFloat32Array" | "PackedFloat64Array" => {
            Value::Array(o["value"].as_array().unwrap().iter().map(real).collect())
        }
        "PackedVector2Array" | "PackedVector3Array" | "PackedVector4Array" | "PackedColorArray" => {
            let element = match tag {
                "PackedVector2Array" => VariantType::Vector2,
                "PackedVector3Array" => VariantType::Vector3,
                "PackedVector4Array" => VariantType::Vector4,
                _ => VariantType::Color,
            };
            let items = o["value"].as_array().unwrap();
            Value::Array(items.iter().map(|c| named(element, c.as_array().unwrap())).collect())
        }
        _ => named(ty.unwrap(), o["value"].as_array().unwrap()),
    }
}

/// A dictionary key by the docs' rules.
fn key(lossless: &Value) -> String {
    match lossless {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_owned(),
        Value::Object(o) => match o["type"].as_str().unwrap() {
            "StringName" | "String" if o.contains_key("value") => {
                o["value"].as_str().unwrap().to_owned()
            }
            "String" | "StringName" => {
                text(&json!({"bytes": o["bytes"]})).as_str().unwrap().to_owned()
            }
            "NodePath" => natural(lossless).as_str().unwrap().to_owned(),
            "float" => real(&o["value"]).as_str().unwrap().to_owned(),
            _ => serde_json::to_string(lossless).unwrap(),
        },
        Value::Array(_) => serde_json::to_string(lossless).unwrap(),
    }
}

#[test]
fn every_corpus_value_in_natural_json_is_the_lossless_value_mapped() {
    // The corpus nests 1000 levels; the mapping above recurses, as serde_json's values do.
    std::thread::Builder::new().stack_size(256 << 20).spawn(check_corpus).unwrap().join().unwrap();
}

fn check_corpus() {
    let mut checked = 0;
    for version in [Version::Godot3, Version::Godot4] {
        for path in corpus_files(version, 4 << 20) {
            let bytes = std::fs::read(&path).unwrap();
            let options = Options::new(version).with_allow_objects(true);
            if gdvariant::validate(&bytes, options).is_err() {
                continue;
            }
            let value = gdvariant::parse(&bytes, options).unwrap();
            let lossless: Value = parse_json(&to_json(value).unwrap());
            let text = to_natural_json(value).unwrap();
            let written: Value = parse_json(&text);
            assert_eq!(written, natural(&lossless), "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

#[test]
fn the_documented_examples() {
    let options = Options::godot4();
    let mut writer = gdvariant::Writer::new(Vec::new(), gdvariant::EncodeOptions::godot4());
    writer.begin_dictionary(6).unwrap();
    writer.string("pos").unwrap();
    writer.vector2(gdvariant::math::Vector2 { x: 1.5f32, y: 0.1 }).unwrap();
    writer.int(1).unwrap();
    writer.float(f64::INFINITY).unwrap();
    writer.vector2i(gdvariant::math::Vector2 { x: 1, y: 2 }).unwrap();
    writer.packed_bytes(b"foo").unwrap();
    writer.float(0.5).unwrap();
    writer.float(f64::NAN).unwrap();
    writer.begin_array(1).unwrap();
    writer.int(1).unwrap();
    writer.bool(true).unwrap();
    writer.string("pos").unwrap();
    writer.int(2).unwrap();
    let bytes = writer.finish().unwrap();
    let value = gdvariant::parse(&bytes, options).unwrap();
    assert_eq!(
        to_natural_json(value).unwrap(),
        r#"{"pos":{"x":1.5,"y":0.1},"1":"Infinity","{\"type\":\"Vector2i\",\"value\":[1,2]}":"Zm9v","0.5":"NaN","[1]":true,"pos":2}"#
    );
}
