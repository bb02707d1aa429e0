//! Work bounds of the JSON writers (feature `work-counter`): [`gdvariant::json::to_json`] and
//! [`gdvariant::json::to_natural_json`] on generated worst cases at two sizes, in both versions:
//! nesting to the depth limit, wide dictionaries, many short strings, long strings, strings that
//! need an escape at every character, floats whose shortest exact text is longest, packed
//! arrays of every kind, dictionary keys that are containers (written as their lossless JSON
//! text, itself escaped, in natural JSON), NodePaths and full objects. The work grows linearly
//! with the bytes (4x the bytes, at most 6x the units) and stays within a constant factor of
//! `validate`'s on the same bytes.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::work::assert_linear;
use gdvariant::math::{Color, Vector2, Vector3};
use gdvariant::{EncodeOptions, MAX_DEPTH, Options, Version, Writer, math::Precision};

use Version::{Godot3 as G3, Godot4 as G4};

/// Work allowed per unit of `validate`'s. Validation reads a packed array or a string in one
/// read (a unit per 64 bytes), while its JSON text is written element by element (a unit per
/// write, one or two per number) and each number's shortest digits are computed: a packed
/// array of 4-byte numbers is the costliest shape per byte.
const FACTOR: u64 = 48;

fn encode(version: Version, build: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    encode_with(
        match version {
            G3 => EncodeOptions::godot3(),
            G4 => EncodeOptions::godot4(),
        },
        build,
    )
}

fn encode_with(options: EncodeOptions, build: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer);
    writer.finish().unwrap()
}

/// Both JSON forms of the value, which must be valid (and must be JSON).
fn both(bytes: &[u8], options: Options) {
    let value = gdvariant::parse(bytes, options).unwrap();
    let lossless = gdvariant::json::to_json(value).unwrap();
    let natural = gdvariant::json::to_natural_json(value).unwrap();
    assert!(!lossless.is_empty() && !natural.is_empty());
}

/// Asserts linear work for both JSON forms on `make(n)` and `make(4n)`, in `version`.
fn linear(name: &str, version: Version, n: usize, make: impl Fn(usize) -> Vec<u8>) {
    let options = Options::new(version).with_allow_objects(true);
    let [small, large] =
        assert_linear(&format!("{version:?} {name}"), n, FACTOR, |n| (make(n), options), both);
    eprintln!("{version:?} {name}: {small:?} {large:?}");
    // Checked once that the text is JSON (outside the measurement).
    let bytes = make(n);
    let value = gdvariant::parse(&bytes, options).unwrap();
    for text in
        [gdvariant::json::to_json(value).unwrap(), gdvariant::json::to_natural_json(value).unwrap()]
    {
        // serde_json's reader recurses: a big stack for the nesting to the depth limit.
        let name = name.to_owned();
        common::with_big_stack(move || {
            let mut deserializer = serde_json::Deserializer::from_str(&text);
            deserializer.disable_recursion_limit();
            let _: serde_json::Value = serde::Deserialize::deserialize(&mut deserializer)
                .unwrap_or_else(|e| panic!("{name}: not JSON ({e}): {text:.200}"));
        });
    }
    assert!(small.units > 0);
}

/// `depth` arrays, one inside the other, around the int `i`.
fn nested(w: &mut Writer<Vec<u8>>, depth: usize, i: usize) {
    for _ in 0..depth {
        w.begin_array(1).unwrap();
    }
    w.int(i as i64).unwrap();
}

#[test]
fn nesting_to_the_depth_limit() {
    let deepest = usize::from(MAX_DEPTH) - 1;
    for version in [G3, G4] {
        linear("arrays to the depth limit", version, 4, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    nested(w, deepest, i);
                }
            })
        });
        linear("dictionaries to the depth limit", version, 4, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    for _ in 0..deepest {
                        w.begin_dictionary(1).unwrap();
                        w.string("k").unwrap();
                    }
                    w.int(i as i64).unwrap();
                }
            })
        });
    }
}

#[test]
fn wide_dictionaries_and_short_strings() {
    for version in [G3, G4] {
        linear("a wide dictionary", version, 2_000, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    w.string(&format!("key{i}")).unwrap();
                    w.int(i as i64).unwrap();
                }
            })
        });
        linear("many one-byte strings", version, 4_000, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    w.string(if i % 2 == 0 { "a" } else { "" }).unwrap();
                }
            })
        });
        linear("a packed array of short strings", version, 4_000, |n| {
            encode(version, |w| {
                let strings: Vec<String> = (0..n).map(|i| (i % 10).to_string()).collect();
                w.packed_strings(strings.iter().map(String::as_str)).unwrap();
            })
        });
    }
}

#[test]
fn long_strings_and_escapes_everywhere() {
    // Every character of the control range, quotes and backslashes: each needs an escape
    // (`\u0001` is six bytes for one).
    let hostile: String =
        (0u8..32).map(char::from).chain(['"', '\\', 'a', 'é']).filter(|&c| c != '\0').collect();
    for version in [G3, G4] {
        linear("a long plain string", version, 100_000, |n| {
            encode(version, |w| w.string(&"é".repeat(n)).unwrap())
        });
        linear("a long string of escapes", version, 2_000, |n| {
            encode(version, |w| w.string(&hostile.repeat(n)).unwrap())
        });
        // Escapes alternating with short plain runs, and escapes in keys.
        linear("escapes between plain runs", version, 2_000, |n| {
            encode(version, |w| w.string(&"\u{1}a".repeat(16 * n)).unwrap())
        });
        linear("keys of escapes", version, 500, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    w.string(&format!("{hostile}{i}")).unwrap();
                    w.string(&hostile).unwrap();
                }
            })
        });
        linear("packed strings of escapes", version, 500, |n| {
            encode(version, |w| w.packed_strings(vec![hostile.as_str(); n]).unwrap())
        });
    }
    // A Godot 3 string that is not Unicode (a surrogate): lossless JSON writes its bytes in
    // hex, natural JSON its lossy text.
    linear("a long Godot 3 string with a surrogate", G3, 20_000, |n| {
        let mut text = vec![b'a'; n];
        text.extend_from_slice(&[0xED, 0xA0, 0x80]);
        let mut bytes = 4u32.to_le_bytes().to_vec();
        bytes.extend_from_slice(&(text.len() as u32).to_le_bytes());
        bytes.extend_from_slice(&text);
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        bytes
    });
}

/// Floats whose shortest round-trip text is the longest there is (17 significant digits and
/// a three-digit exponent), subnormals, and values that need the bignum fallback.
fn hard_floats() -> Vec<f64> {
    vec![
        f64::MIN_POSITIVE,
        5e-324,
        -2.2250738585072014e-308,
        1.7976931348623157e308,
        0.30000000000000004,
        123_456_789.123_456_79,
        9_007_199_254_740_993.0,
        2.0f64.powi(-1074) * 3.0,
        1e23,
        f64::from_bits(0x7fef_ffff_ffff_fffe),
        f64::from_bits(0x0000_0000_0000_7fff),
    ]
}

#[test]
fn floats_needing_exact_text() {
    let floats = hard_floats();
    let singles: Vec<f32> =
        vec![f32::MIN_POSITIVE, 1e-45, 3.4028235e38, 0.1, 1.0e-40, 16_777_217.0];
    for version in [G3, G4] {
        linear("floats", version, 2_000, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    w.float(floats[i % floats.len()]).unwrap();
                }
            })
        });
        linear("packed float32", version, 5_000, |n| {
            encode(version, |w| {
                let values: Vec<f32> = (0..n).map(|i| singles[i % singles.len()]).collect();
                w.packed_float32(&values).unwrap();
            })
        });
        linear("non-finite floats and NaN payloads", version, 2_000, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    let nan = f64::from_bits(0x7ff0_0000_0000_0001 + i as u64);
                    w.float([f64::INFINITY, f64::NEG_INFINITY, nan][i % 3]).unwrap();
                }
            })
        });
        linear("float keys", version, 2_000, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    w.float(floats[i % floats.len()] * (i + 1) as f64).unwrap();
                    w.nil().unwrap();
                }
            })
        });
    }
    linear("packed float64", G4, 5_000, |n| {
        encode(G4, |w| {
            let values: Vec<f64> = (0..n).map(|i| floats[i % floats.len()]).collect();
            w.packed_float64(&values).unwrap();
        })
    });
    let double = EncodeOptions::godot4().with_precision(Precision::Double);
    linear("packed vector3 in doubles", G4, 2_000, |n| {
        encode_with(double, |w| {
            let v = Vector3 { x: floats[0], y: floats[1], z: floats[3] };
            w.packed_vector3(&vec![v; n]).unwrap();
        })
    });
}

#[test]
fn packed_arrays() {
    for version in [G3, G4] {
        linear("packed bytes", version, 50_000, |n| {
            encode(version, |w| w.packed_bytes(&vec![0xA5u8; n]).unwrap())
        });
        linear("packed int32", version, 5_000, |n| {
            encode(version, |w| w.packed_int32(&vec![i32::MIN; n]).unwrap())
        });
        linear("packed vector2", version, 2_000, |n| {
            let v = Vector2 { x: 0.1f32, y: f32::MIN_POSITIVE };
            encode(version, |w| w.packed_vector2(&vec![v; n]).unwrap())
        });
        linear("packed colors", version, 2_000, |n| {
            let c = Color { r: 0.1, g: 1e-40, b: f32::NAN, a: 1.0 };
            encode(version, |w| w.packed_colors(&vec![c; n]).unwrap())
        });
        linear("many small packed arrays", version, 1_000, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    w.packed_bytes(&[i as u8]).unwrap();
                }
            })
        });
    }
    linear("packed int64", G4, 5_000, |n| {
        encode(G4, |w| w.packed_int64(&vec![i64::MIN; n]).unwrap())
    });
}

#[test]
fn dictionary_keys_that_are_containers() {
    for version in [G3, G4] {
        // Natural JSON writes each key as its lossless JSON, escaped as a string.
        linear("keys that are nested arrays", version, 300, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    nested(w, 16, i);
                    w.nil().unwrap();
                }
            })
        });
        linear("keys that are dictionaries of string keys", version, 300, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    for _ in 0..8 {
                        w.begin_dictionary(1).unwrap();
                        w.string("\"q\"").unwrap();
                    }
                    w.int(i as i64).unwrap();
                    w.bool(true).unwrap();
                }
            })
        });
        linear("a key nested to the depth limit", version, 4, |n| {
            encode(version, |w| {
                w.begin_array(n).unwrap();
                for i in 0..n {
                    w.begin_dictionary(1).unwrap();
                    nested(w, usize::from(MAX_DEPTH) - 3, i);
                    w.nil().unwrap();
                }
            })
        });
        linear("keys that are math values and packed arrays", version, 500, |n| {
            encode(version, |w| {
                w.begin_dictionary(2 * n).unwrap();
                for i in 0..n {
                    w.vector2(Vector2 { x: i as f32, y: 0.1f32 }).unwrap();
                    w.nil().unwrap();
                    w.packed_int32(&[i as i32, -1, 2]).unwrap();
                    w.nil().unwrap();
                }
            })
        });
        linear("keys that are node paths", version, 500, |n| {
            encode(version, |w| {
                w.begin_dictionary(n).unwrap();
                for i in 0..n {
                    w.node_path(true, ["root", "a\"b", &i.to_string()], ["x"]).unwrap();
                    w.nil().unwrap();
                }
            })
        });
    }
}

#[test]
fn node_paths_and_full_objects() {
    for version in [G3, G4] {
        linear("a node path of many names", version, 2_000, |n| {
            encode(version, |w| {
                let names: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
                w.node_path(true, names.iter().map(String::as_str), ["x"]).unwrap();
            })
        });
        let full = match version {
            G3 => EncodeOptions::godot3(),
            G4 => EncodeOptions::godot4(),
        }
        .with_full_objects(true);
        linear("an object of many properties", version, 2_000, |n| {
            encode_with(full, |w| {
                w.begin_object("Node", n as u32).unwrap();
                for i in 0..n {
                    w.property_name(&format!("p{i}")).unwrap();
                    w.int(i as i64).unwrap();
                }
            })
        });
    }
}
