//! The `Error` API: `Display`, Godot's error names and codes, `is_malformed`.

use super::depth::nested_arrays;
use super::*;

#[test]
fn error_api_matches_godot() {
    use Version::{Godot3 as G3, Godot4 as G4};
    let g4 = Options::godot4();
    let g3 = Options::godot3();
    let node_object = |id: u32, class: &str, props: &[u8]| {
        let mut b = words(&[id]);
        b.extend(gd_string(class));
        b.extend_from_slice(props);
        b
    };
    // Real errors from real inputs: (version, error, kind, offset, Godot's name)
    let invalid_utf8 = [words(&[4, 2]), vec![0xC3, 0x28, 0, 0]].concat();
    let script_prop = [words(&[1]), gd_string("script"), words(&[2, 1])].concat();
    let errors: Vec<(Version, Error, ErrorKind, usize, Option<&str>)> = vec![
        (
            G4,
            gdvariant::validate(&[2, 0, 0, 0], g4).unwrap_err(),
            ErrorKind::Truncated { needed: 4 },
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&[39, 0, 0, 0], g4).unwrap_err(),
            ErrorKind::UnknownType { id: 39 },
            0,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(&[27, 0, 0, 0], g3).unwrap_err(),
            ErrorKind::UnknownType { id: 27 },
            0,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[4, 5]), g4).unwrap_err(),
            ErrorKind::StringOverrun { declared: 5 },
            4,
            Some("ERR_FILE_EOF"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[30, 3, 0]), g4).unwrap_err(),
            ErrorKind::BadCount { count: 3 },
            4,
            Some("ERR_INVALID_DATA"),
        ),
        // Godot 4 names the first byte of the bad sequence (the lead C3 at 8), Godot 3 the
        // first byte its decoder refuses (the continuation 28 at 9).
        (
            G4,
            gdvariant::validate(&invalid_utf8, g4).unwrap_err(),
            ErrorKind::InvalidUtf8,
            8,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(&invalid_utf8, g3).unwrap_err(),
            ErrorKind::InvalidUtf8,
            9,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&nested_arrays(0x1C, 1026, false), g4).unwrap_err(),
            ErrorKind::DepthLimit,
            8200,
            Some("ERR_OUT_OF_MEMORY"),
        ),
        (
            G4,
            gdvariant::validate(&node_object(24, "Node", &words(&[0])), g4).unwrap_err(),
            ErrorKind::ObjectsNotAllowed,
            0,
            Some("ERR_UNAUTHORIZED"),
        ),
        (
            G4,
            gdvariant::validate(
                &node_object(24, "NoSuchClass", &words(&[0])),
                g4.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::UnknownClass,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G3,
            gdvariant::validate(
                &node_object(17, "NoSuchClass", &words(&[0])),
                g3.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::UnknownClass,
            4,
            Some("ERR_UNAVAILABLE"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[22, 1, 0, 0]), g4).unwrap_err(),
            ErrorKind::OldNodePath,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(&words(&[0x0001_001C, 99, 0]), g4).unwrap_err(),
            ErrorKind::InvalidContainerType,
            4,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::validate(
                &node_object(24, "Node", &script_prop),
                g4.with_allow_objects(true),
            )
            .unwrap_err(),
            ErrorKind::InvalidScript,
            28,
            Some("ERR_INVALID_DATA"),
        ),
        (
            G4,
            gdvariant::parse(&corpus(G4, "dict_simple"), g4)
                .unwrap()
                .as_dictionary()
                .unwrap()
                .get_as::<i64>("b")
                .unwrap_err(),
            ErrorKind::WrongType { expected: VariantType::Int, found: VariantType::String },
            40,
            None,
        ),
    ];
    for (version, error, kind, offset, name) in &errors {
        assert_eq!((error.kind(), error.offset()), (*kind, *offset), "{error}");
        let text = error.to_string();
        assert!(text.ends_with(&format!(" at byte offset {offset}")), "{text}");
        assert!(text.starts_with(&error.kind().to_string()), "{text}");
        assert_eq!(error.godot_error(*version).map(GodotError::name), *name, "{error}");
        assert_eq!(error.is_malformed(), !matches!(kind, ErrorKind::WrongType { .. }), "{error}");
    }
    // NotUnicode: Godot 3 accepts a surrogate in a string, which `str` cannot hold.
    let surrogate = [words(&[4, 3]), vec![0xED, 0xA0, 0x80, 0]].concat();
    gdvariant::validate(&surrogate, g3).unwrap();
    let not_unicode = gdvariant::parse(&surrogate, g3).unwrap().as_gd_str().unwrap().to_str();
    let not_unicode = not_unicode.unwrap_err();
    assert_eq!((not_unicode.kind(), not_unicode.offset()), (ErrorKind::NotUnicode, 8));
    assert!(!not_unicode.is_malformed());
    assert_eq!(not_unicode.godot_error(G3), None);
    assert_eq!(Error::new(0, ErrorKind::NotUnicode).godot_error(G4), None);
    // Godot 4 refuses the same bytes.
    assert_eq!(
        gdvariant::validate(&surrogate, g4).unwrap_err(),
        Error::new(8, ErrorKind::InvalidUtf8)
    );
    // Every kind's mapping, for both versions.
    let all_kinds = [
        (ErrorKind::Truncated { needed: 8 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::StringOverrun { declared: 1 }, "ERR_FILE_EOF", "ERR_FILE_EOF"),
        (ErrorKind::UnknownType { id: 200 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::BadCount { count: 9 }, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidUtf8, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::DepthLimit, "ERR_OUT_OF_MEMORY", "ERR_OUT_OF_MEMORY"),
        (ErrorKind::ObjectsNotAllowed, "ERR_UNAUTHORIZED", "ERR_UNAUTHORIZED"),
        (ErrorKind::UnknownClass, "ERR_UNAVAILABLE", "ERR_INVALID_DATA"),
        (ErrorKind::OldNodePath, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidContainerType, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
        (ErrorKind::InvalidScript, "ERR_INVALID_DATA", "ERR_INVALID_DATA"),
    ];
    for (kind, g3_name, g4_name) in all_kinds {
        let e = Error::new(123, kind);
        assert!(e.is_malformed());
        assert_eq!(e.godot_error(G3).unwrap().name(), g3_name, "{kind:?}");
        assert_eq!(e.godot_error(G4).unwrap().name(), g4_name, "{kind:?}");
        assert!(e.to_string().ends_with("at byte offset 123"));
    }
    let wrong = Error::new(
        7,
        ErrorKind::WrongType { expected: VariantType::Array, found: VariantType::Nil },
    );
    assert!(!wrong.is_malformed());
    assert_eq!((wrong.godot_error(G3), wrong.godot_error(G4)), (None, None));
    assert_eq!(wrong.to_string(), "expected Array, found Nil at byte offset 7");
    // Godot's numeric codes.
    let codes = [
        (GodotError::Unavailable, 2, "ERR_UNAVAILABLE"),
        (GodotError::Unauthorized, 4, "ERR_UNAUTHORIZED"),
        (GodotError::OutOfMemory, 6, "ERR_OUT_OF_MEMORY"),
        (GodotError::FileEof, 18, "ERR_FILE_EOF"),
        (GodotError::InvalidData, 30, "ERR_INVALID_DATA"),
    ];
    for (e, code, name) in codes {
        assert_eq!((e.code(), e.name()), (code, name));
    }
    // `Error` is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(errors[0].1);
    assert!(boxed.to_string().contains("at byte offset 4"));
}
