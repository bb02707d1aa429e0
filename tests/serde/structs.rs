//! Your own types: structs that borrow, options, nesting, vectors, maps and enums.

use super::*;

#[test]
fn a_struct_borrows_its_strings_from_the_buffer() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.5f32, y: -2.0 }).unwrap();
        w.string("seq").unwrap();
        w.int(7).unwrap();
    });
    let m: Move<'_> = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(m, Move { player: "ana", pos: Vector2 { x: 1.5, y: -2.0 }, seq: 7 });
    // Zero copy: the text is the bytes after the key "player" and the string's header.
    let range = bytes.as_ptr_range();
    assert!(range.contains(&m.player.as_ptr()));
    let at = m.player.as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(&bytes[at..at + 3], b"ana");
    // The same from a lazily parsed value, and from Godot 3 bytes.
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    assert_eq!(from_variant_ref::<Move<'_>>(value).unwrap(), m);

    // Your own vector type reads as well as the crate's.
    #[derive(Debug, Deserialize, PartialEq)]
    struct V {
        x: f64,
        y: f64,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct Mine {
        pos: V,
    }
    let mine: Mine = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(mine.pos, V { x: 1.5, y: -2.0 });
    // And as a tuple.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Tuple {
        pos: (f32, f32),
    }
    assert_eq!(from_bytes::<Tuple>(&bytes, Options::godot4()).unwrap().pos, (1.5, -2.0));
}

#[derive(Debug, Deserialize, PartialEq)]
struct Optional {
    a: Option<i64>,
    b: Option<i64>,
    c: Option<i64>,
    nothing: (),
}

#[test]
fn nil_is_none_and_unit() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(3).unwrap();
        w.string("a").unwrap();
        w.nil().unwrap();
        w.string("b").unwrap();
        w.int(5).unwrap();
        w.string("nothing").unwrap();
        w.nil().unwrap();
    });
    let optional: Optional = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(optional, Optional { a: None, b: Some(5), c: None, nothing: () });
    let bytes = corpus(Version::Godot4, "nil");
    assert_eq!(from_bytes::<Option<String>>(&bytes, Options::godot4()).unwrap(), None);
    from_bytes::<()>(&bytes, Options::godot4()).unwrap();
    let bytes = corpus(Version::Godot4, "int_42");
    assert_eq!(from_bytes::<Option<u8>>(&bytes, Options::godot4()).unwrap(), Some(42));
    assert!(from_bytes::<()>(&bytes, Options::godot4()).is_err());
}

#[test]
fn nested_structs_vectors_and_maps() {
    // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    let bytes = corpus(Version::Godot4, "dict_nested");
    #[derive(Debug, Deserialize, PartialEq)]
    struct D {
        d: Option<i64>,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct C {
        c: (i64, i64, D),
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct B {
        b: C,
    }
    #[derive(Debug, Deserialize, PartialEq)]
    struct Top {
        a: B,
        e: Vec<String>,
    }
    let top: Top = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(top, Top { a: B { b: C { c: (1, 2, D { d: None }) } }, e: vec![] });

    // Godot 4.6: var_to_bytes({"z": 1, "a": 2, "m": 3})
    for version in VERSIONS {
        let bytes = corpus(version, "dict_order");
        let map: HashMap<String, i64> = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(map, HashMap::from([("z".into(), 1), ("a".into(), 2), ("m".into(), 3)]));
        let map: BTreeMap<&str, u8> = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(map.keys().copied().collect::<Vec<_>>(), ["a", "m", "z"]);
        let entries: InOrder = from_bytes(&bytes, Options::new(version)).unwrap();
        assert_eq!(entries.0, [("z".into(), 1), ("a".into(), 2), ("m".into(), 3)]);
    }

    // Arrays of dictionaries into vectors of structs: the corpus' 10000 dictionaries.
    #[derive(Debug, Deserialize)]
    struct Any {
        #[serde(flatten)]
        fields: HashMap<String, Value>,
    }
    let bytes = corpus(Version::Godot4, "large_array_10000_dicts");
    let all: Vec<Any> = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(all.len(), 10000);
    assert!(!all[0].fields.is_empty());
}

#[test]
fn enums_read_from_strings_indices_and_one_entry_dictionaries() {
    #[derive(Debug, Deserialize, PartialEq)]
    enum Action {
        Idle,
        Jump(u8),
        Walk { x: i32, y: i32 },
        Pair(i64, String),
    }
    let read = |write: &dyn Fn(&mut Writer<Vec<u8>>)| {
        let bytes = written(EncodeOptions::godot4(), |w| write(w));
        from_bytes::<Action>(&bytes, Options::godot4())
    };
    assert_eq!(read(&|w| w.string("Idle").unwrap()).unwrap(), Action::Idle);
    assert_eq!(read(&|w| w.string_name("Idle").unwrap()).unwrap(), Action::Idle);
    // A GDScript enum value is an int: the variant index.
    assert_eq!(read(&|w| w.int(0).unwrap()).unwrap(), Action::Idle);
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Jump").unwrap();
            w.int(3).unwrap();
        })
        .unwrap(),
        Action::Jump(3)
    );
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Walk").unwrap();
            w.begin_dictionary(2).unwrap();
            w.string("x").unwrap();
            w.int(-1).unwrap();
            w.string("y").unwrap();
            w.int(2).unwrap();
        })
        .unwrap(),
        Action::Walk { x: -1, y: 2 }
    );
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Pair").unwrap();
            w.begin_array(2).unwrap();
            w.int(4).unwrap();
            w.string("four").unwrap();
        })
        .unwrap(),
        Action::Pair(4, "four".into())
    );
    // A unit variant in a dictionary needs a null.
    assert_eq!(
        read(&|w| {
            w.begin_dictionary(1).unwrap();
            w.string("Idle").unwrap();
            w.nil().unwrap();
        })
        .unwrap(),
        Action::Idle
    );
    let error = read(&|w| {
        w.begin_dictionary(1).unwrap();
        w.string("Jump").unwrap();
        w.int(300).unwrap();
    })
    .unwrap_err();
    assert_eq!(error.path(), "Jump");
    assert_eq!(error.offset(), Some(20));
    let error = read(&|w| w.string("Run").unwrap()).unwrap_err();
    assert!(error.to_string().starts_with("unknown variant `Run`"), "{error}");
    let error = read(&|w| {
        w.begin_dictionary(2).unwrap();
        for name in ["Jump", "Idle"] {
            w.string(name).unwrap();
            w.nil().unwrap();
        }
    })
    .unwrap_err();
    assert!(error.to_string().contains("one entry"), "{error}");
    assert!(read(&|w| w.float(1.0).unwrap()).is_err());
}
