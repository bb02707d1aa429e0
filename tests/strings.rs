//! Strings exactly as the game reads them, against the engines' own answers:
//!
//! * every input of the UTF-8 sweeps each engine accepted (`corpus/probes/sweep-godot{3,4}.tsv`):
//!   the code points, the text, `eq_str`, the owned string and its encoding, and a dictionary
//!   key spelled with the input found by its text;
//! * Godot 3 strings that are not standard UTF-8 in values, dictionary keys, NodePaths,
//!   PoolStringArrays and objects (`corpus/probes/strings/godot3.jsonl`): what Godot 3 sees,
//!   prints (`var2str`) and writes back (`var2bytes`);
//! * the key `"type"` spelled with an overlong `t` through every reader: lookups, paths, owned
//!   dictionaries, serde, the text writer, JSON.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use std::path::Path;

use common::{read_jsonl, unhex};
use gdvariant::{
    EncodeOptions, ErrorKind, Key, Options, Variant, VariantRef, Version, owned::GdString,
};
use serde_json::Value;

/// Every input the engine of `version` accepted in its sweep, with the code points it read.
fn sweep(version: Version) -> Vec<(Vec<u8>, Vec<u32>)> {
    let file = match version {
        Version::Godot3 => "sweep-godot3.tsv",
        Version::Godot4 => "sweep-godot4.tsv",
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes").join(file);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let points = fields[2]
                .split(',')
                .filter(|p| !p.is_empty())
                .map(|p| u32::from_str_radix(p, 16).unwrap())
                .collect();
            (unhex(fields[0]), points)
        })
        .collect()
}

/// A String value holding `body`, padded.
fn string_value(body: &[u8]) -> Vec<u8> {
    let mut bytes = vec![4, 0, 0, 0];
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(body);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    bytes
}

/// A dictionary of `version` whose keys are strings holding `keys`, worth 1, 2, ...
fn dictionary(version: Version, keys: &[&[u8]]) -> Vec<u8> {
    let id: u32 = if version == Version::Godot3 { 18 } else { 27 };
    let mut bytes = [id, keys.len() as u32].map(u32::to_le_bytes).concat();
    for (i, key) in keys.iter().enumerate() {
        bytes.extend(string_value(key));
        bytes.extend([2u32, i as u32 + 1].map(u32::to_le_bytes).concat());
    }
    bytes
}

/// Godot 3.2.3's `String::utf8()` of code points, written here from its definition (each code
/// point in its shortest form of up to 6 bytes), independently of the crate.
fn godot3_utf8(points: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    for &c in points {
        let len =
            [0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000].iter().filter(|&&m| c >= m).count() + 1;
        if len == 1 {
            out.push(c as u8);
            continue;
        }
        let marker = [0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC][len];
        out.push(marker | (c >> (6 * (len - 1))) as u8);
        for k in (0..len - 1).rev() {
            out.push(0x80 | ((c >> (6 * k)) & 0x3F) as u8);
        }
    }
    out
}

#[test]
fn every_accepted_sweep_input_reads_as_the_engine_read_it() {
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        let inputs = sweep(version);
        assert!(inputs.len() > 19_000, "{version:?}: {} inputs", inputs.len());
        let (mut respelled, mut not_unicode, mut found) = (0, 0, 0);
        for (body, engine) in &inputs {
            let context = format!("{version:?} {body:02x?}");
            let bytes = string_value(body);
            gdvariant::validate(&bytes, options).unwrap();
            let s = gdvariant::parse(&bytes, options).unwrap().as_gd_str().unwrap();

            // The code points, and the text when `str` holds them.
            let points: Vec<u32> = s.code_points().unwrap().collect();
            assert_eq!(&points, engine, "{context}");
            let chars: Option<String> = engine.iter().map(|&c| char::from_u32(c)).collect();
            match (&chars, s.to_text()) {
                (Some(chars), Ok(text)) => {
                    assert_eq!(&*text, chars, "{context}");
                    assert!(s.eq_str(chars), "{context}");
                    assert!(!s.eq_str(&format!("{chars}x")), "{context}");
                    assert_eq!(s.to_string_lossy(), *chars, "{context}");
                }
                (None, Err(error)) => {
                    assert_eq!(error.kind(), ErrorKind::NotUnicode, "{context}");
                    not_unicode += 1;
                }
                (chars, text) => panic!("{context}: {chars:?} but to_text {text:?}"),
            }

            // Owned, and written back as Godot 3 writes it: byte for byte, overlong forms in
            // their shortest form.
            let value = gdvariant::decode(&bytes, options).unwrap();
            let Variant::String(owned) = &value else { panic!("{context}: {value:?}") };
            assert_eq!(owned.code_points().collect::<Vec<_>>(), *engine, "{context}");
            assert_eq!(owned.as_str(), chars.as_deref(), "{context}");
            let written = gdvariant::encode(&value, EncodeOptions::new(version)).unwrap();
            assert_eq!(written, string_value(&godot3_utf8(engine)), "{context}");
            assert!(gdvariant::decode(&written, options).unwrap().same(&value), "{context}");
            let text = s.text_bytes();
            if godot3_utf8(engine) != text {
                assert_eq!(version, Version::Godot3, "{context}: only Godot 3 normalises");
                respelled += 1;
            }

            // A key spelled with the input is the key spelled plainly, before or after it.
            if let Some(chars) = &chars {
                // Godot drops one leading byte order mark: a text that starts with U+FEFF is
                // spelled plainly after one.
                let plain = match chars.starts_with('\u{feff}') {
                    true => format!("\u{feff}{chars}").into_bytes(),
                    false => chars.clone().into_bytes(),
                };
                let plain = plain.as_slice();
                for (keys, last) in [([body.as_slice(), plain], 2), ([plain, body.as_slice()], 2)] {
                    let dict = dictionary(version, &keys);
                    gdvariant::validate(&dict, options).unwrap();
                    let lazy = gdvariant::parse(&dict, options).unwrap();
                    let lazy = lazy.as_dictionary().unwrap();
                    let got = |key: &str| lazy.get(key).unwrap().and_then(|v| v.as_int());
                    assert_eq!(got(chars), Some(last), "{context}");
                    let first = lazy.get_first(chars.as_str()).unwrap().and_then(|v| v.as_int());
                    assert_eq!(first, Some(1), "{context}");
                    let owned = gdvariant::decode(&dict, options).unwrap();
                    let owned = owned.as_dictionary().unwrap();
                    assert_eq!(owned.len(), 1, "{context}");
                    assert_eq!(owned.get(chars.as_str()), Some(&Variant::Int(last)), "{context}");
                }
                found += 1;
            }
        }
        match version {
            Version::Godot3 => {
                assert!(respelled > 150 && not_unicode > 1_000, "{respelled} {not_unicode}")
            }
            Version::Godot4 => assert_eq!((respelled, not_unicode), (0, 0)),
        }
        assert!(found > 18_000, "{version:?}: {found}");
    }
}

/// The records of `corpus/probes/strings/godot3.jsonl`.
fn godot3_strings() -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/probes/strings/godot3.jsonl");
    let cases = read_jsonl(&path);
    assert!(cases.len() >= 18, "{} cases", cases.len());
    cases
}

/// What GDScript saw of a value (the probe's `seen`): strings as their code points.
fn seen(value: VariantRef<'_>) -> Value {
    use VariantRef as R;
    let points =
        |s: gdvariant::view::GdStr<'_>| Value::from(s.code_points().unwrap().collect::<Vec<_>>());
    match value {
        R::String(s) => serde_json::json!({"String": points(s)}),
        R::Int(i) => Value::from(i),
        R::Array(array) => {
            serde_json::json!({"Array": array.iter().map(|v| seen(v.unwrap())).collect::<Vec<_>>()})
        }
        R::NodePath(path) => serde_json::json!({"NodePath": {
            "names": path.names().map(|n| points(n.unwrap())).collect::<Vec<_>>(),
            "subnames": path.subnames().map(|n| points(n.unwrap())).collect::<Vec<_>>(),
        }}),
        R::PackedStringArray(strings) => serde_json::json!({
            "PoolStringArray": strings.iter().map(|s| points(s.unwrap())).collect::<Vec<_>>()
        }),
        other => panic!("not in the probes: {other:?}"),
    }
}

/// Godot 3's `var2str` text with every code point no Rust `str` holds as U+FFFD (Godot prints
/// those as their own bytes), read with the crate's decoder.
fn printable(godot: &[u8]) -> String {
    let bytes = string_value(godot);
    let string = gdvariant::parse(&bytes, Options::godot3()).unwrap();
    string.as_gd_str().unwrap().to_string_lossy().into_owned()
}

#[test]
fn godot3_strings_are_what_godot3_sees_prints_and_writes() {
    for case in godot3_strings() {
        let name = case["name"].as_str().unwrap();
        assert_eq!(case["accepted"], true, "{name}");
        let allow = case["allow_objects"] == true;
        let options = Options::godot3().with_allow_objects(allow);
        let bytes = unhex(case["input_hex"].as_str().unwrap());
        gdvariant::validate(&bytes, options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let value = gdvariant::parse(&bytes, options).unwrap();
        let var2str = unhex(case["var2str_utf8_hex"].as_str().unwrap());
        let var2bytes = unhex(case["var2bytes_hex"].as_str().unwrap());
        if allow {
            // Godot prints and writes the properties of the instance it built; the class is
            // what it instantiated.
            let class = case["seen"]["Object"]["class"].as_str().unwrap();
            let owned = gdvariant::decode(&bytes, options).unwrap();
            let Variant::Object(gdvariant::owned::Object::Full(object)) = &owned else {
                panic!("{name}: {owned:?}")
            };
            let ours = &object.class;
            assert_eq!(ours, class, "{name}");
            continue;
        }
        let text = gdvariant::text::to_text_as(value, Version::Godot3).unwrap();
        assert_eq!(text, printable(&var2str), "{name}: var2str");
        let owned = gdvariant::decode(&bytes, options).unwrap();
        assert_eq!(owned.encode(EncodeOptions::godot3()).unwrap(), var2bytes, "{name}: var2bytes");
        match value {
            VariantRef::Dictionary(dictionary) => {
                let size = case["size"].as_u64().unwrap() as usize;
                assert_eq!(owned.as_dictionary().unwrap().len(), size, "{name}");
                let get = dictionary.get("type").unwrap().map(|v| Value::from(v.as_int().unwrap()));
                assert_eq!(get.unwrap_or(Value::Null), case["get_type"], "{name}");
                assert_eq!(case["has_type"], owned.as_dictionary().unwrap().get("type").is_some());
                // Godot's entries, keys by code points, in its order (the first position).
                let entries: Vec<Value> = owned
                    .as_dictionary()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| {
                        let key = match k {
                            Variant::String(s) => {
                                serde_json::json!({"String": s.code_points().collect::<Vec<_>>()})
                            }
                            Variant::Array(a) => serde_json::json!({"Array": a
                                .iter()
                                .map(|s| serde_json::json!({"String": s.as_gd_string().unwrap().code_points().collect::<Vec<_>>()}))
                                .collect::<Vec<_>>()}),
                            other => panic!("{name}: {other:?}"),
                        };
                        serde_json::json!([key, v.as_int().unwrap()])
                    })
                    .collect();
                assert_eq!(serde_json::json!({"Dictionary": entries}), case["seen"], "{name}");
            }
            other => assert_eq!(seen(other), case["seen"], "{name}"),
        }
    }
}

/// `{<overlong "t">"ype": 1}`, `{"type": 1, <overlong "t">"ype": 2}` and the reverse, as Godot
/// 3.2.3 decoded them (`corpus/probes/strings/godot3.jsonl`): one key `type`, the last value.
fn type_cases() -> Vec<(String, Vec<u8>, i64)> {
    godot3_strings()
        .into_iter()
        .filter(|case| {
            case["name"].as_str().unwrap().starts_with("dict_") && case["has_type"] == true
        })
        .map(|case| {
            let bytes = unhex(case["input_hex"].as_str().unwrap());
            (case["name"].as_str().unwrap().to_owned(), bytes, case["get_type"].as_i64().unwrap())
        })
        .collect()
}

#[test]
fn the_key_type_spelled_with_an_overlong_t_is_type_to_every_reader() {
    #[derive(serde::Deserialize)]
    struct Message {
        #[serde(rename = "type")]
        kind: i64,
    }
    #[derive(serde::Deserialize)]
    struct Named {
        name: String,
    }

    let options = Options::godot3();
    let cases = type_cases();
    assert_eq!(cases.len(), 3);
    for (name, bytes, godot) in cases {
        let value = gdvariant::parse(&bytes, options).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        // Lazy lookups, paths.
        assert_eq!(dictionary.get("type").unwrap().and_then(|v| v.as_int()), Some(godot), "{name}");
        assert_eq!(dictionary.get_as::<i64>("type").unwrap(), Some(godot), "{name}");
        assert_eq!(
            dictionary.get_element("type").unwrap().map(|e| e.get_as::<i64>().unwrap()),
            Some(godot)
        );
        let path = gdvariant::view::parse_path("type").unwrap();
        assert_eq!(value.lookup(&path).unwrap().and_then(|v| v.as_int()), Some(godot), "{name}");
        assert!(Key::from("type").matches(&dictionary.iter().next().unwrap().unwrap().0));
        // Owned.
        let owned = gdvariant::decode(&bytes, options).unwrap();
        let owned = owned.as_dictionary().unwrap();
        assert_eq!(owned.len(), 1, "{name}");
        assert_eq!(owned.get("type"), Some(&Variant::Int(godot)), "{name}");
        assert_eq!(owned.keys().next().and_then(Variant::as_str), Some("type"), "{name}");
        // Serde, into a struct with a `type` field, and into the lossless form.
        let message: Message = gdvariant::serde::from_bytes(&bytes, options).unwrap();
        assert_eq!(message.kind, godot, "{name}");
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(
            json,
            format!(r#"{{"Dictionary":{{"entries":[[{{"String":"type"}},{{"Int":{godot}}}]]}}}}"#)
        );
        // Godot's text and lossless JSON.
        let text = gdvariant::text::to_text_as(value, Version::Godot3).unwrap();
        assert_eq!(text, format!("{{\n\"type\": {godot}\n}}"), "{name}");
        assert!(gdvariant::json::to_json(value).unwrap().contains(r#"["type","#), "{name}");
    }

    // A value spelled with an overlong form: the text is owned, a borrowed `&str` is refused
    // with a clear error, an owned `String` field reads it.
    let header = [18u32, 1].map(u32::to_le_bytes).concat();
    let bytes = [header, string_value(b"name"), string_value(b"\xE0\x81\xB4ype")].concat();
    let value = gdvariant::parse(&bytes, options).unwrap();
    let name = value.as_dictionary().unwrap().get("name").unwrap().unwrap();
    let s = name.as_gd_str().unwrap();
    assert_eq!(s.to_str().unwrap_err().kind(), ErrorKind::Overlong);
    assert_eq!(s.to_text().unwrap(), "type");
    assert_eq!(name.as_str(), None);
    let dictionary = value.as_dictionary().unwrap();
    assert_eq!(dictionary.get_as::<&str>("name").unwrap_err().kind(), ErrorKind::Overlong);
    assert_eq!(dictionary.get_as::<String>("name").unwrap().as_deref(), Some("type"));
    let named: Named = gdvariant::serde::from_bytes(&bytes, options).unwrap();
    assert_eq!(named.name, "type");
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Borrowed<'a> {
        name: &'a str,
    }
    let error = gdvariant::serde::from_bytes::<Borrowed<'_>>(&bytes, options).unwrap_err();
    assert_eq!(error.path(), "name");
}

#[test]
fn strings_only_godot3_holds_are_owned_and_written_back() {
    // Godot 3: "a", U+D800, "b" (`corpus/probes/strings/godot3.jsonl`, `str_surrogate`).
    let bytes = unhex("040000000500000061eda08062000000");
    let value = gdvariant::decode(&bytes, Options::godot3()).unwrap();
    let s = value.as_gd_string().unwrap();
    assert_eq!(s.code_points().collect::<Vec<_>>(), [0x61, 0xD800, 0x62]);
    assert_eq!(value.as_str(), None);
    assert_eq!(format!("{s:?}"), r#""a\u{d800}b""#);
    assert_eq!(value.encode(EncodeOptions::godot3()).unwrap(), bytes);
    assert_eq!(
        value.encode(EncodeOptions::godot4()),
        Err(gdvariant::encoder::EncodeError::NotUnicode)
    );
    // Lossless serde: the code points, and back.
    let json = serde_json::to_string(&value).unwrap();
    assert_eq!(json, r#"{"String":[97,55296,98]}"#);
    assert_eq!(
        json,
        serde_json::to_string(&gdvariant::parse(&bytes, Options::godot3()).unwrap()).unwrap()
    );
    let back: Variant = serde_json::from_str(&json).unwrap();
    assert!(back.same(&value));
    let back: Variant = rmp_serde::from_slice(&rmp_serde::to_vec(&value).unwrap()).unwrap();
    assert!(back.same(&value));
    assert!(serde_json::from_str::<Variant>(r#"{"String":[0]}"#).is_err());
    assert!(serde_json::from_str::<Variant>(r#"{"String":[2147483648]}"#).is_err());
    let text: Variant = serde_json::from_str(r#"{"String":[116]}"#).unwrap();
    assert_eq!(text, Variant::from("t"));
    // JSON keeps the bytes, the text writer shows U+FFFD.
    let lazy = gdvariant::parse(&bytes, Options::godot3()).unwrap();
    assert_eq!(
        gdvariant::json::to_json(lazy).unwrap(),
        r#"{"type":"String","bytes":"61eda08062"}"#
    );
    assert_eq!(gdvariant::text::to_text_as(lazy, Version::Godot3).unwrap(), "\"a\u{FFFD}b\"");
    // Equal code points are one key; a GdString compares with text by code point.
    let mut dictionary = gdvariant::owned::Dictionary::new();
    dictionary.insert(value.clone(), 1);
    dictionary
        .insert(Variant::String(GdString::from_code_points([0x61, 0xD800, 0x62]).unwrap()), 2);
    assert_eq!(dictionary.len(), 1);
    assert_eq!(GdString::from("type"), "type");
    assert_ne!(s, "a\u{FFFD}b");
}

/// A dictionary of `version` whose entries are the String keys and String values given, in order.
fn text_dictionary(version: Version, entries: &[(&[u8], &[u8])]) -> Vec<u8> {
    let id: u32 = if version == Version::Godot3 { 18 } else { 27 };
    let mut bytes = [id, entries.len() as u32].map(u32::to_le_bytes).concat();
    for (key, value) in entries {
        bytes.extend(string_value(key));
        bytes.extend(string_value(value));
    }
    bytes
}

#[test]
fn get_is_answers_what_godot3_finds_for_the_key_type() {
    // Godot 3.2.3's own answers: the key `type` spelled plainly or with an overlong `t`, repeated
    // or not, is one key whose value is the last one.
    for (name, bytes, godot) in type_cases() {
        let value = gdvariant::parse(&bytes, Options::godot3()).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        for candidate in [1, 2] {
            let found = dictionary.get_is("type", candidate).unwrap();
            assert_eq!(found, candidate == godot, "{name}: type == {candidate}");
        }
        // Godot's key equality: an int is not a float, nor a string.
        assert!(!dictionary.get_is("type", godot as f64).unwrap(), "{name}");
        assert!(!dictionary.get_is("type", "1").unwrap(), "{name}");
    }
}

#[test]
fn get_is_and_is_text_read_disguised_commands_as_the_game_does() {
    let (g3, g4) = (Version::Godot3, Version::Godot4);
    let overlong_s = b"\xE0\x81\xB3hutdown_server".as_slice();
    let overlong_c = b"\xE0\x81\xA3md".as_slice();
    // (version, entries, whether the game reads `cmd` as "shutdown_server")
    type Entries<'a> = Vec<(&'a [u8], &'a [u8])>;
    let cases: [(Version, Entries<'_>, bool); 12] = [
        (g3, vec![(b"cmd", b"shutdown_server")], true),
        (g3, vec![(b"cmd", overlong_s)], true),
        (g3, vec![(overlong_c, b"shutdown_server")], true),
        (g3, vec![(b"cmd", b"shutdown_server\0junk")], true),
        (g3, vec![(b"cmd", b"\xEF\xBB\xBFshutdown_server")], true),
        (g3, vec![(b"cmd", b"ping"), (overlong_c, overlong_s)], true),
        (g3, vec![(b"cmd", overlong_s), (b"cmd", b"ping")], false),
        (g3, vec![(b"cmd", b"\xEF\xBB\xBF\xEF\xBB\xBFshutdown_server")], false),
        (g3, vec![(b"cmd", b"shutdown_serve")], false),
        (g4, vec![(b"cmd", overlong_s)], false),
        (
            g4,
            vec![(b"cmd", b"shutdown_server\0junk"), (b"cmd\0x", b"\xEF\xBB\xBFshutdown_server")],
            true,
        ),
        (g4, vec![(b"cmd", b"shutdown_server"), (b"cmd", b"ping")], false),
    ];
    for (i, (version, entries, godot)) in cases.iter().enumerate() {
        let bytes = text_dictionary(*version, entries);
        let options = Options::new(*version);
        let value = gdvariant::parse(&bytes, options).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        let found = dictionary.get_is("cmd", "shutdown_server");
        assert_eq!(found, Ok(*godot), "case {i}");
        let last = dictionary.get("cmd").unwrap().unwrap();
        assert_eq!(last.is_text("shutdown_server"), *godot, "case {i}");
    }
}

#[test]
fn get_is_treats_a_godot4_string_name_as_the_string() {
    // {&"cmd": &"shutdown_server"}: StringName (id 21) key and value.
    let name = |text: &[u8]| {
        let mut bytes = string_value(text);
        bytes[0] = 21;
        bytes
    };
    let mut bytes = [27u32, 1].map(u32::to_le_bytes).concat();
    bytes.extend(name(b"cmd"));
    bytes.extend(name(b"shutdown_server"));
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let dictionary = value.as_dictionary().unwrap();
    assert_eq!(dictionary.get_is("cmd", "shutdown_server"), Ok(true));
    assert_eq!(dictionary.get_is("cmd", "ping"), Ok(false));
    assert_eq!(dictionary.get_is("other", "shutdown_server"), Ok(false));
    assert!(dictionary.get("cmd").unwrap().unwrap().is_text("shutdown_server"));
    // An int is not text.
    assert!(!VariantRef::Int(1).is_text("1"));
}

#[test]
fn get_is_refuses_to_answer_on_a_dictionary_it_cannot_read() {
    // {"a": 1, "cmd": <a value of unknown type 200>}: the entries after "a" cannot be read.
    let mut bytes = [27u32, 2].map(u32::to_le_bytes).concat();
    bytes.extend(string_value(b"a"));
    bytes.extend([2u32, 1].map(u32::to_le_bytes).concat());
    bytes.extend(string_value(b"cmd"));
    bytes.extend(200u32.to_le_bytes());
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let dictionary = value.as_dictionary().unwrap();
    let error = dictionary.get_is("cmd", "shutdown_server").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::UnknownType { id: 200 });
    assert!(dictionary.get_is("cmd", "shutdown_server").unwrap_or(true));
}
