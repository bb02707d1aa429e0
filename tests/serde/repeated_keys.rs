//! Repeated keys: serialized as Godot decodes them, the last value taken.

use super::*;

#[test]
fn repeated_keys_serialize_as_godot_decodes_them() {
    let object_keys = |w: &mut Writer<Vec<u8>>| {
        w.object_id(5).unwrap();
        w.int(1).unwrap();
        w.object_id(5).unwrap();
        w.int(2).unwrap();
    };
    let cases: Vec<(Version, Vec<u8>, usize)> = vec![
        // 0.0 and -0.0 are one key; 1 and 1.0 are two; NaNs are one key.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(7).unwrap();
                for (key, value) in [(0.0, 1), (-0.0, 2), (f64::NAN, 3), (-f64::NAN, 4)] {
                    w.float(key).unwrap();
                    w.int(value).unwrap();
                }
                w.int(1).unwrap();
                w.int(5).unwrap();
                w.float(1.0).unwrap();
                w.int(6).unwrap();
                w.int(1).unwrap();
                w.int(7).unwrap();
            }),
            4,
        ),
        // A String and a StringName with the same text are one key in Godot 4.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(3).unwrap();
                w.string("a").unwrap();
                w.int(1).unwrap();
                w.string_name("a").unwrap();
                w.int(2).unwrap();
                w.string("b").unwrap();
                w.int(3).unwrap();
            }),
            2,
        ),
        // Decoded objects are new instances: never one key.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(2).unwrap();
                object_keys(w);
            }),
            2,
        ),
        (
            Version::Godot3,
            written(EncodeOptions::godot3(), |w| {
                w.begin_dictionary(2).unwrap();
                object_keys(w);
            }),
            2,
        ),
        // Equal dictionaries are one key in Godot 4, two in Godot 3; equal arrays one key in
        // both.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(4).unwrap();
                for value in [1, 2] {
                    w.begin_dictionary(1).unwrap();
                    w.string("k").unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
                for value in [3, 4] {
                    w.begin_array(1).unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
            }),
            2,
        ),
        (
            Version::Godot3,
            written(EncodeOptions::godot3(), |w| {
                w.begin_dictionary(4).unwrap();
                for value in [1, 2] {
                    w.begin_dictionary(1).unwrap();
                    w.string("k").unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
                for value in [3, 4] {
                    w.begin_array(1).unwrap();
                    w.int(0).unwrap();
                    w.int(value).unwrap();
                }
            }),
            3,
        ),
        // Past 16 entries the hashes are sorted: a repeat at each end.
        (
            Version::Godot4,
            written(EncodeOptions::godot4(), |w| {
                w.begin_dictionary(40).unwrap();
                for i in 0..39 {
                    w.int(i).unwrap();
                    w.int(i).unwrap();
                }
                w.int(0).unwrap();
                w.string("last").unwrap();
            }),
            39,
        ),
    ];
    for (version, bytes, entries) in cases {
        let options = Options::new(version);
        let owned = gdvariant::decode(&bytes, options).unwrap();
        assert_eq!(owned.as_dictionary().unwrap().len(), entries, "{owned:?}");
        let borrowed = gdvariant::parse(&bytes, options).unwrap();
        assert_eq!(
            serde_json::to_value(borrowed).unwrap(),
            serde_json::to_value(&owned).unwrap(),
            "{owned:?}"
        );
    }
}

#[test]
fn a_repeated_key_takes_its_last_value_as_in_godot() {
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(5).unwrap();
        w.string("seq").unwrap();
        w.int(1).unwrap();
        w.string("player").unwrap();
        w.string("ana").unwrap();
        w.string("pos").unwrap();
        w.vector2(Vector2 { x: 1.0f32, y: 2.0 }).unwrap();
        w.string_name("seq").unwrap();
        w.int(2).unwrap();
        w.string("player").unwrap();
        w.string("bo").unwrap();
    });
    let options = Options::godot4();
    // What the game sees.
    let dictionary = gdvariant::parse(&bytes, options).unwrap().as_dictionary().unwrap();
    assert_eq!(dictionary.get("seq").unwrap().unwrap().as_int(), Some(2));
    let m: Move<'_> = from_bytes(&bytes, options).unwrap();
    assert_eq!(m, Move { player: "bo", pos: Vector2 { x: 1.0, y: 2.0 }, seq: 2 });
    let map: HashMap<String, Value> = from_bytes(&bytes, options).unwrap();
    assert_eq!(map.len(), 3);
    assert_eq!(map["seq"], 2);
    // Each key at its first position, with its last value.
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(4).unwrap();
        for (key, value) in [("a", 1), ("b", 2), ("a", 3), ("c", 4)] {
            w.string(key).unwrap();
            w.int(value).unwrap();
        }
    });
    let entries: InOrder = from_bytes(&bytes, options).unwrap();
    assert_eq!(entries.0, [("a".into(), 3), ("b".into(), 2), ("c".into(), 4)]);
}

#[test]
fn a_repeated_property_takes_its_last_value() {
    let encode = EncodeOptions::godot4().with_full_objects(true);
    let bytes = written(encode, |w| {
        w.begin_object("Resource", 3).unwrap();
        for (name, value) in [("a", 1), ("b", 2), ("a", 3)] {
            w.property_name(name).unwrap();
            w.int(value).unwrap();
        }
    });
    let options = Options::godot4().with_allow_objects(true);
    let properties: InOrder = from_bytes(&bytes, options).unwrap();
    assert_eq!(properties.0, [("a".into(), 3), ("b".into(), 2)]);
}
