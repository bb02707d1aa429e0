//! The work of ordering a dictionary's keys grows linearly, at two sizes of each hard shape.

use super::*;

#[test]
fn keys_equal_down_to_a_deep_difference() {
    // The innermost ints decide, however deep.
    for version in [G3, G4] {
        for depth in [15, 16, 17, 24] {
            assert_linear(
                &format!("{version:?} keys nested {depth} deep"),
                300,
                FACTOR,
                |count| dictionary(version, count, |w, i| nested(w, depth, count - i)),
                print,
            );
        }
    }
}

#[test]
fn thousands_of_keys_nested_17_deep() {
    assert_linear(
        "keys nested 17 deep",
        1000,
        FACTOR,
        |count| dictionary(G4, count, |w, i| nested(w, 17, i)),
        print,
    );
}

#[test]
fn keys_nested_near_the_depth_limit() {
    // Godot 4 prints containers more than 100 levels down as empty, Godot 3 every level: each
    // part is visited once either way.
    for (version, factor) in [(G4, FACTOR), (G3, FACTOR)] {
        assert_linear(
            &format!("{version:?} keys nested 1020 deep"),
            8,
            factor,
            |count| dictionary(version, count, |w, i| nested(w, 1020, count - i)),
            print,
        );
    }
}

/// Keys of types without `<`: all tied in Godot's order, all distinct.
#[test]
fn thousands_of_distinct_keys_without_order() {
    type Key = fn(&mut Writer<Vec<u8>>, usize);
    let kinds: [(&str, Key); 8] = [
        ("PackedInt32Array", |w, i| w.packed_int32(&[7, i as i32]).unwrap()),
        ("Color", |w, i| w.color(Color { r: i as f32, g: 0.0, b: 0.0, a: 1.0 }).unwrap()),
        ("NodePath", |w, i| w.node_path(false, ["a", &i.to_string()], []).unwrap()),
        ("Dictionary", |w, i| {
            w.begin_dictionary(1).unwrap();
            w.int(i as i64).unwrap();
            w.nil().unwrap();
        }),
        ("Transform2D", |w, i| {
            let t = Transform2D { x: Vector2 { x: i as f32, y: 0.0 }, ..Default::default() };
            w.transform2d(t).unwrap();
        }),
        ("Vector2 with a NaN", |w, i| w.vector2(Vector2 { x: f32::NAN, y: i as f32 }).unwrap()),
        ("Array of a NaN vector", |w, i| {
            w.begin_array(1).unwrap();
            w.vector2(Vector2 { x: f32::NAN, y: i as f32 }).unwrap();
        }),
        ("PackedStringArray", |w, i| w.packed_strings(["s", &i.to_string()]).unwrap()),
    ];
    for version in [G3, G4] {
        for (name, key) in kinds {
            assert_linear(
                &format!("{version:?} {name} keys"),
                1000,
                FACTOR,
                |count| dictionary(version, count, key),
                print,
            );
        }
    }
}

/// Keys Godot 3 orders inconsistently (different pool arrays are each less than the other, as
/// are arrays of one element, `[x] < [y]` being `!(x < y)`), which makes Godot's insertion sort
/// quadratic: the exact sort stops at its budget and a merge sort finishes.
#[test]
fn thousands_of_keys_each_less_than_the_other() {
    type Key = fn(&mut Writer<Vec<u8>>, usize);
    let kinds: [(&str, Key); 3] = [
        ("PoolIntArray", |w, i| w.packed_int32(&[i as i32, 1]).unwrap()),
        ("PoolVector2Array", |w, i| {
            w.packed_vector2(&[Vector2 { x: i as f32, y: 0.0 }, Vector2::default()]).unwrap();
        }),
        ("Array of one equal int", |w, _| {
            w.begin_array(1).unwrap();
            w.int(0).unwrap();
        }),
    ];
    for (name, key) in kinds {
        assert_linear(
            &format!("Godot3 {name} keys"),
            1000,
            FACTOR,
            |count| dictionary(G3, count, key),
            print,
        );
    }
}

/// Keys Godot 3 does not find when it prints their values: pools of reals holding a NaN, and
/// dictionaries holding such a key (printing them adds an entry, which changes their hash),
/// nested as keys of keys.
#[test]
fn thousands_of_keys_godot3_does_not_find() {
    assert_linear(
        "Godot3 pools of reals with a NaN",
        1000,
        FACTOR,
        |count| dictionary(G3, count, |w, i| w.packed_float32(&[f32::NAN, i as f32]).unwrap()),
        print,
    );
    assert_linear(
        "Godot3 dictionaries with such a key, nested as keys",
        300,
        FACTOR,
        |count| {
            dictionary(G3, count, |w, i| {
                for _ in 0..3 {
                    w.begin_dictionary(1).unwrap();
                }
                w.packed_float32(&[f32::NAN]).unwrap();
                for _ in 0..3 {
                    w.int(i as i64).unwrap();
                }
            })
        },
        print,
    );
}

#[test]
fn thousands_of_repeated_keys_without_order() {
    // Each key twice, the repeats in reverse order: every repeat is merged.
    assert_linear(
        "repeated PackedInt32Array keys",
        1000,
        FACTOR,
        |count| {
            let half = count / 2;
            dictionary(G4, half * 2, |w, i| {
                let k = if i < half { i } else { 2 * half - 1 - i };
                w.packed_int32(&[k as i32]).unwrap();
            })
        },
        print,
    );
}

#[test]
fn thousands_of_keys_differing_in_their_string_names_and_inner_repeats() {
    // Godot 4 tells a StringName from its String inside a key, and merges an inner
    // dictionary's repeated keys before comparing it: arrays of 16 texts, each a String or a
    // StringName by the bits of the index, then a dictionary whose key 0 repeats with values
    // that make half the keys equal.
    assert_linear(
        "arrays of Strings and StringNames, inner dictionaries with repeated keys",
        1000,
        FACTOR,
        |count| {
            dictionary(G4, count, |w, i| {
                w.begin_array(17).unwrap();
                for bit in 0..16 {
                    if i >> bit & 1 == 1 {
                        w.string_name("a").unwrap();
                    } else {
                        w.string("a").unwrap();
                    }
                }
                w.begin_dictionary(3).unwrap();
                w.int(0).unwrap();
                w.int(i as i64).unwrap();
                w.int(1).unwrap();
                w.float(1.5).unwrap();
                w.int(0).unwrap();
                w.int((i / 2) as i64).unwrap();
            })
        },
        print,
    );
}

#[test]
fn thousands_of_keys_with_a_long_common_prefix() {
    assert_linear(
        "arrays of 32 zeros and an index",
        1000,
        FACTOR,
        |count| {
            dictionary(G4, count, |w, i| {
                w.begin_array(33).unwrap();
                for _ in 0..32 {
                    w.int(0).unwrap();
                }
                w.int(i as i64).unwrap();
            })
        },
        print,
    );
    let prefix = "x".repeat(2000);
    assert_linear(
        "strings of 2000 bytes and an index",
        250,
        FACTOR,
        // In reverse order (Godot's quicksort takes twice as many comparisons on some orders
        // of some sizes, which the growth check would take for a worse bound).
        |count| {
            dictionary(G4, count, |w, i| w.string(&format!("{prefix}{:06}", count - i)).unwrap())
        },
        print,
    );
}

#[test]
fn few_large_keys_equal_but_for_their_last_element() {
    // Up to 256 entries, repeated keys are merged before sorting: each key's equality with the
    // others must not cost its size each time.
    for count in [16, 256, 257] {
        assert_linear(
            &format!("{count} arrays equal but for the last element"),
            64,
            FACTOR,
            |len| {
                dictionary(G4, count, |w, i| {
                    w.begin_array(len).unwrap();
                    for _ in 1..len {
                        w.int(0).unwrap();
                    }
                    w.int(i as i64).unwrap();
                })
            },
            print,
        );
    }
}

#[test]
fn large_keys_nested_inside_the_cut_off() {
    // Keys holding a large array 15 levels down: found by walking, once per level.
    assert_linear(
        "arrays 15 deep around a large one",
        64,
        FACTOR,
        |len| {
            dictionary(G4, 64, |w, i| {
                for _ in 0..15 {
                    w.begin_array(1).unwrap();
                }
                w.begin_array(len).unwrap();
                for _ in 1..len {
                    w.int(0).unwrap();
                }
                w.int(i as i64).unwrap();
            })
        },
        print,
    );
}
