//! Depth and cost: 1000 levels on an 8 MiB stack, elements as their values, no quadratic work on
//! many keys.

use super::*;

#[test]
fn a_1000_level_array_fits_an_8_mib_stack() {
    // Godot 3.2.3: 1000 nested arrays, the innermost empty.
    let bytes = corpus(Version::Godot3, "array_nested_depth1000");
    on_8_mib_stack(move || {
        let options = Options::godot3();
        let value = gdvariant::parse(&bytes, options).unwrap();
        let owned = gdvariant::decode(&bytes, options).unwrap();
        // Serializing, borrowed and owned.
        let json = serde_json::to_string(&value).unwrap();
        assert_eq!(json, serde_json::to_string(&owned).unwrap());
        let packed = rmp_serde::to_vec_named(&value).unwrap();
        assert_eq!(packed, rmp_serde::to_vec_named(&owned).unwrap());
        // Reading a Variant back from JSON.
        assert!(variant_from_json(&json).unwrap().same(&owned));
        // Into your own recursive type, into serde_json::Value, and ignored.
        #[derive(Deserialize)]
        struct Nested(Vec<Nested>);
        let mut nested: Nested = from_bytes(&bytes, options).unwrap();
        let mut arrays = 1;
        while let Some(inner) = nested.0.pop() {
            nested = inner;
            arrays += 1;
        }
        // The top-level array and 1000 levels below it.
        assert_eq!(arrays, 1001);
        let as_json: Value = from_bytes(&bytes, options).unwrap();
        std::mem::forget(as_json);
        from_bytes::<IgnoredAny>(&bytes, options).unwrap();
        std::mem::forget(owned);
    });
}

#[test]
fn elements_serialize_as_their_values() {
    // An element of a container writes its value, straight from the buffer.
    let bytes = corpus(Version::Godot4, "array_mixed");
    let array = gdvariant::parse(&bytes, Options::godot4()).unwrap().as_array().unwrap();
    let owned = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    for (element, expected) in array.elements().zip(owned.as_array().unwrap().iter()) {
        assert_eq!(
            serde_json::to_value(element.unwrap()).unwrap(),
            serde_json::to_value(expected).unwrap()
        );
    }
}

/// The number of entries a map reads as.
struct Count(usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Count;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Count, A::Error> {
                let mut count = 0;
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
                    count += 1;
                }
                Ok(Count(count))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[test]
fn many_distinct_container_keys_cost_no_quadratic_work() {
    // 30000 distinct one-entry dictionaries as keys (each hashes alike on the cheap first pass),
    // then the first one again.
    const KEYS: i64 = 30_000;
    let bytes = written(EncodeOptions::godot4(), |w| {
        w.begin_dictionary(KEYS as usize + 1).unwrap();
        for i in 0..=KEYS {
            w.begin_dictionary(1).unwrap();
            w.int(i % KEYS).unwrap();
            w.nil().unwrap();
            w.int(i).unwrap();
        }
    });
    // Quadratic work would take minutes here (a regression shows as a test that does not end).
    let count: Count = from_bytes(&bytes, Options::godot4()).unwrap();
    assert_eq!(count.0, KEYS as usize);
    let value = gdvariant::parse(&bytes, Options::godot4()).unwrap();
    let json = serde_json::to_value(value).unwrap();
    let entries = json["Dictionary"]["entries"].as_array().unwrap();
    assert_eq!(entries.len(), KEYS as usize);
    assert_eq!(entries[0][1], serde_json::json!({"Int": KEYS}));
    // The owned dictionary indexes such keys by their content.
    let owned = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    let owned = owned.as_dictionary().unwrap();
    assert_eq!(owned.len(), KEYS as usize);
    assert_eq!(owned.values().next(), Some(&gdvariant::Variant::Int(KEYS)));
}
