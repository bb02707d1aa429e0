//! Errors of your own types: the field path and the byte offset.

use super::*;

/// The [`DeError`] of deserializing a `T` from `bytes`.
fn error_of<'de, T: Deserialize<'de> + std::fmt::Debug>(bytes: &'de [u8]) -> DeError {
    from_bytes::<T>(bytes, Options::godot4()).unwrap_err()
}

/// The offset of the value of `key` in the top-level dictionary of `bytes`.
fn value_offset(bytes: &[u8], key: &str) -> usize {
    let dictionary = gdvariant::parse(bytes, Options::godot4()).unwrap().as_dictionary().unwrap();
    dictionary.get_element(key).unwrap().unwrap().offset()
}

fn move_bytes(seq: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.5f32, y: -2.0 }).unwrap();
        w.string("seq").unwrap();
        seq(w);
    })
}

#[test]
fn errors_name_the_field_path_and_the_byte_offset() {
    // Wrong type.
    let bytes = move_bytes(|w| w.string("a").unwrap());
    let error = error_of::<Move<'_>>(&bytes);
    let at = value_offset(&bytes, "seq");
    assert_eq!(at, 72);
    assert_eq!(
        error.to_string(),
        "invalid type: string \"a\", expected u32 at seq (byte offset 72)"
    );
    assert_eq!(error.path(), "seq");
    assert_eq!(error.offset(), Some(at));
    assert_eq!(error.path_segments().collect::<Vec<_>>(), [&PathSegment::Field("seq".into())]);
    assert!(error.decode_error().is_none());

    // Out of range.
    let bytes = move_bytes(|w| w.int(-1).unwrap());
    let error = error_of::<Move<'_>>(&bytes);
    assert_eq!(
        error.to_string(),
        format!("invalid value: integer `-1`, expected u32 at seq (byte offset {at})")
    );
    let bytes = move_bytes(|w| w.int(1 << 40).unwrap());
    assert!(error_of::<Move<'_>>(&bytes).to_string().starts_with("invalid value: integer"));

    // Missing field: about the dictionary, at the top.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
    });
    let error = error_of::<Move<'_>>(&bytes);
    assert_eq!(error.to_string(), "missing field `pos` (byte offset 0)");
    assert_eq!(error.path(), "");

    // Inside a math value: the field path, the offset of the vector.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Named {
        x: String,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Pos {
        pos: Named,
    }
    let bytes = move_bytes(|w| w.int(7).unwrap());
    let error = error_of::<Pos>(&bytes);
    assert_eq!(error.path(), "pos.x");
    assert_eq!(error.offset(), Some(value_offset(&bytes, "pos")));
    assert!(error.message().starts_with("invalid type: floating point `1.5`"), "{error}");

    // Deep inside: items[3].name.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Item<'a> {
        name: &'a str,
    }
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Inventory<'a> {
        #[serde(borrow)]
        items: Vec<Item<'a>>,
    }
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.string("items").unwrap();
        w.begin_array(4).unwrap();
        for i in 0..4 {
            w.begin_dictionary(1).unwrap();
            w.string("name").unwrap();
            if i == 3 {
                w.int(5).unwrap();
            } else {
                w.string("sword").unwrap();
            }
        }
    });
    let error = error_of::<Inventory<'_>>(&bytes);
    assert_eq!(error.path(), "items[3].name");
    let items = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let fourth = items.as_dictionary().unwrap().get("items").unwrap().unwrap();
    let fourth = fourth.as_array().unwrap().get(3).unwrap().unwrap().as_dictionary().unwrap();
    let name_at = fourth.get_element("name").unwrap().unwrap().offset();
    assert_eq!(error.offset(), Some(name_at));
    assert_eq!(
        error.to_string(),
        format!(
            "invalid type: integer `5`, expected a borrowed string at items[3].name (byte offset {name_at})"
        )
    );

    // A non-string key in the path.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(1).unwrap();
        w.int(9).unwrap();
        w.string("x").unwrap();
    });
    let error = from_bytes::<HashMap<i64, i64>>(&bytes, Options::godot4()).unwrap_err();
    assert_eq!(error.path(), "[9]");
}

#[test]
fn malformed_input_is_an_error_with_the_offending_offset() {
    // Bad UTF-8 in `player`.
    let mut bytes = move_bytes(|w| w.int(7).unwrap());
    let player = value_offset(&bytes, "player");
    let bad = player + 8 + 1; // header, length, then the second byte of "ana"
    bytes[bad] = 0xFF;

    // Reading lazily, the string is checked when it is reached.
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let error = from_variant_ref::<Move<'_>>(value).unwrap_err();
    assert_eq!(error.path(), "player");
    assert_eq!(error.offset(), Some(bad));
    assert_eq!(error.decode_error().unwrap().kind(), ErrorKind::InvalidUtf8);
    assert_eq!(
        error.to_string(),
        format!("string is not valid UTF-8 at player (byte offset {bad})")
    );
    // ... and not when it is not.
    #[derive(Debug, Deserialize)]
    struct JustSeq {
        seq: u32,
    }
    assert_eq!(from_variant_ref::<JustSeq>(value).unwrap().seq, 7);
    // `from_bytes` checks everything first, as Godot does.
    let error = from_bytes::<JustSeq>(&bytes, Options::godot4()).unwrap_err();
    assert_eq!(error.offset(), Some(bad));
    assert_eq!(error.decode_error().unwrap().kind(), ErrorKind::InvalidUtf8);
    assert!(std::error::Error::source(&error).is_some());

    // Truncated input.
    let bytes = move_bytes(|w| w.int(7).unwrap());
    let cut = &bytes[..bytes.len() - 2];
    let error = from_bytes::<Move<'_>>(cut, Options::godot4()).unwrap_err();
    let decode = error.decode_error().unwrap();
    assert!(matches!(decode.kind(), ErrorKind::Truncated { .. }), "{error}");
    assert_eq!(error.offset(), Some(decode.offset()));
    assert!(error.to_string().ends_with(&format!("(byte offset {})", decode.offset())));
    // Lazily: the truncated value is an error when reached, with its path.
    let value = gdvariant::parse(cut, Options::godot4()).unwrap();
    let error = from_variant_ref::<Move<'_>>(value).unwrap_err();
    assert!(error.decode_error().is_some(), "{error}");

    // Every corpus case with its last byte cut off: an error or a value, never a panic.
    with_big_stack(|| {
        for case in value_cases() {
            let cut = &case.bytes[..case.bytes.len() - 1];
            // (A final PackedByteArray may lack its padding, as Godot accepts.)
            let verdict = gdvariant::validate(cut, case.options());
            let read = from_bytes::<IgnoredAny>(cut, case.options());
            assert_eq!(read.is_ok(), verdict.is_ok(), "{}", case.name);
            if let Ok(value) = gdvariant::parse(cut, case.options()) {
                let _ = from_variant_ref::<Value>(value);
                let _ = serde_json::to_value(value);
            }
        }
    });
}
