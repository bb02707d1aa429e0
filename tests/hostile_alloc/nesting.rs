//! Nesting on a small stack: refused past the limit, the deepest accepted values decoded,
//! hashed, compared, dropped and encoded there.

use super::*;

const MIB: usize = 1 << 20;

/// Descends from the top value through the first element / first key, iteratively; returns the
/// number of levels reached.
fn descend(bytes: &[u8], options: Options) -> Result<usize, Error> {
    let mut value = gdvariant::parse(bytes, options)?;
    let mut levels = 1;
    loop {
        let next = match value {
            VariantRef::Array(a) => a.get(0)?,
            VariantRef::Dictionary(d) => match d.entries().next() {
                // Dictionaries nested as values: the key is null, the value goes on.
                Some(entry) => {
                    let (key, value) = entry?;
                    Some(if key.value().is_nil() { value.value() } else { key.value() })
                }
                None => None,
            },
            _ => None,
        };
        match next {
            Some(child) => {
                value = child;
                levels += 1;
            }
            None => return Ok(levels),
        }
    }
}

/// A nesting shape: how one level is written, and where the depth limit's error lands.
struct Shape {
    name: &'static str,
    /// The words before the child, for a container header `header`.
    level: fn(u32) -> Vec<u32>,
    /// The words after the child.
    after: &'static [u32],
    /// Offset of the error when level 1026 (depth 1025) is reached.
    error_at: usize,
}

const SHAPES: [Shape; 3] = [
    Shape { name: "arrays", level: |h| vec![h, 1], after: &[], error_at: 8 * 1025 },
    // Each dictionary's only key is the next one (its value, null, comes after).
    Shape { name: "dictionaries as keys", level: |h| vec![h, 1], after: &[0], error_at: 8 * 1025 },
    // Each dictionary's only entry is null: next. The 1025th dictionary's key (depth 1025)
    // is refused first.
    Shape {
        name: "dictionaries as values",
        level: |h| vec![h, 1, 0],
        after: &[],
        error_at: 12 * 1024 + 8,
    },
];

/// `levels` levels of `shape`, the innermost empty.
fn nested(shape: &Shape, header: u32, levels: usize) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend((shape.level)(header));
    }
    ws.extend([header, 0]);
    for _ in 1..levels {
        ws.extend(shape.after);
    }
    words(&ws)
}

/// A megabyte of headers of `shape`, never closed.
fn megabyte(shape: &Shape, header: u32) -> Vec<u8> {
    let level = words(&(shape.level)(header));
    let bytes = level.repeat(MIB / level.len());
    assert!(bytes.len() > MIB - 12);
    bytes
}

#[test]
fn a_megabyte_of_nesting_is_refused_on_a_small_stack() {
    let mut report = Vec::new();
    for (version, array, dictionary) in
        [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)]
    {
        let options = Options::new(version);
        for shape in &SHAPES {
            let header = if shape.name == "arrays" { array } else { dictionary };
            let what = format!("{version:?} a megabyte of {}", shape.name);
            let bytes = megabyte(shape, header);
            let expected = Error::new(shape.error_at, ErrorKind::DepthLimit);
            let decoded = on_small_stack(|| {
                let what = what.as_str();
                let (validated, prefix, walked) = lazy_results(what, &bytes, options);
                assert_eq!(validated, Err(expected), "{what}");
                assert_eq!(prefix, Err(expected), "{what}");
                assert_eq!(walked, Err(expected), "{what}");
                assert_eq!(no_alloc(what, || descend(&bytes, options)), Err(expected), "{what}");
                // With objects allowed and a small custom limit, the same, sooner.
                let o10 = options.with_allow_objects(true).with_max_depth(10);
                let early = no_alloc(what, || gdvariant::validate(&bytes, o10));
                assert_eq!(early.unwrap_err().kind(), ErrorKind::DepthLimit, "{what}");
                let (decoded, allocated) = bounded_decode(what, &bytes, options);
                assert_eq!(decoded, Err(expected), "{what}");
                allocated
            });
            report.push(format!("{what}: decode allocated {decoded} bytes before refusing"));
            // Refused by the validating walk once the decoder is 8 levels deep, whatever the
            // input's size: 8 containers and 8 frames of its stack.
            assert!(decoded <= 4096, "{what}: {decoded} bytes");
        }
    }
    if std::env::var_os("ALLOC_TRACE").is_some() {
        eprintln!("{}", report.join("\n"));
    }
}

#[test]
fn the_deepest_accepted_values_decode_on_a_small_stack() {
    for (version, array, dictionary) in
        [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)]
    {
        let options = Options::new(version);
        for shape in &SHAPES {
            let header = if shape.name == "arrays" { array } else { dictionary };
            let what = format!("{version:?} 1025 levels of {}", shape.name);
            let bytes = nested(shape, header, 1025);
            let lazy = |what: &str| {
                no_alloc(what, || gdvariant::validate(&bytes, options)).unwrap();
                let len = no_alloc(what, || gdvariant::parse_prefix(&bytes, options)).unwrap();
                assert_eq!(len.len(), bytes.len(), "{what}");
                assert_eq!(no_alloc(what, || descend(&bytes, options)), Ok(1025), "{what}");
            };
            on_small_stack(|| lazy(&what));
            let (encoded, allocated) = on_small_stack(|| {
                let (decoded, allocated) = bounded_decode(&what, &bytes, options);
                let value = decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
                let encoded = gdvariant::encode(&value, EncodeOptions::new(version));
                // Dropped here, on the small stack: dropping is iterative.
                drop(value);
                (encoded, allocated)
            });
            if std::env::var_os("ALLOC_TRACE").is_some() {
                eprintln!("{what}: {} in, {allocated} allocated", bytes.len());
            }
            assert!(encoded.unwrap() == bytes, "{what}: re-encoded differently");
            // One more level is refused.
            let deeper = nested(shape, header, 1026);
            let expected = Error::new(shape.error_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deeper, options), Err(expected), "{what}");
        }
        // The full lazy walk of the deepest value (the walk in this file recurses: a big stack).
        let bytes = nested(&SHAPES[0], array, 1025);
        let walked =
            on_stack(64 << 20, || no_alloc("lazy walk", || parse_and_walk(&bytes, options)));
        assert_eq!(walked, Ok(1025));
    }
}

/// Decoding 1025 levels of Godot 4 dictionaries nested as keys (12,296 accepted bytes), on a
/// 256 KiB stack. Godot 4 dictionary keys hash and compare by content: both are iterative.
#[test]
fn decoding_dictionaries_nested_as_keys_fits_a_small_stack() {
    let bytes = nested(&SHAPES[1], 0x1B, 1025);
    let is_dictionary = on_small_stack(|| {
        let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
        matches!(value, Variant::Dictionary(_))
    });
    assert!(is_dictionary);
}

/// A Godot 4 dictionary whose keys are `fillers` ints, then the same key nested 1024 levels
/// deep twice (values 1 and 2): decoding hashes the deep keys and compares them (through the
/// hash index when the dictionary has more than 8 entries).
fn deep_key_twice(fillers: u32) -> Vec<u8> {
    let key = nested(&SHAPES[1], 0x1B, 1024);
    let mut bytes = words(&[0x1B, fillers + 2]);
    for i in 0..fillers {
        bytes.extend(words(&[2, i, 0]));
    }
    for value in [1, 2] {
        bytes.extend(&key);
        bytes.extend(words(&[2, value]));
    }
    bytes
}

#[test]
fn deep_keys_hash_and_compare_on_a_small_stack() {
    // 0 fillers: the keys are compared in order; 9: the dictionary is indexed by hash.
    for fillers in [0, 9] {
        let bytes = deep_key_twice(fillers);
        assert_eq!(gdvariant::validate(&bytes, Options::godot4()), Ok(()));
        let value = on_small_stack(|| {
            let (value, _) = bounded_decode("deep key twice", &bytes, Options::godot4());
            let value = value.unwrap();
            let dictionary = value.as_dictionary().unwrap();
            // The repeated deep key is one key; the second value wins.
            assert_eq!(dictionary.len(), fillers as usize + 1, "{fillers} fillers");
            let (deep, wins) = dictionary.iter().last().unwrap();
            assert_eq!(wins, &Variant::Int(2));
            assert_eq!(dictionary.get(deep), Some(&Variant::Int(2)));
            assert!(deep.same(deep));
            Box::new(value)
        });
        assert!(matches!(*value, Variant::Dictionary(_)));
    }
    // Godot 3 compares dictionary keys by reference: both entries stay.
    let bytes = deep_key_twice(9)
        .chunks(4)
        .flat_map(|w| if w == [0x1B, 0, 0, 0] { [0x12, 0, 0, 0] } else { [w[0], w[1], w[2], w[3]] })
        .collect::<Vec<u8>>();
    let value = on_small_stack(|| Box::new(gdvariant::decode(&bytes, Options::godot3()).unwrap()));
    assert_eq!(value.as_dictionary().unwrap().len(), 11);
}

/// A decode that fails (here before reading anything: the validating walk refuses first) after
/// deep values (an array, a dictionary value, a repeated key whose value is replaced), on a
/// small stack.
#[test]
fn a_failed_decode_drops_deep_values_on_a_small_stack() {
    let deep_array = nested(&SHAPES[0], 0x1C, 1023);
    let deep_key = nested(&SHAPES[1], 0x1B, 1023);
    let cases = [
        // [deep, <bad type 0xFF>]
        [words(&[0x1C, 2]), deep_array.clone(), words(&[0xFF])].concat(),
        // {null: deep, 1: <bad type>}
        [words(&[0x1B, 2, 0]), deep_array.clone(), words(&[2, 1, 0xFF])].concat(),
        // {1: deep, 1: deep, <bad type>: null}: the first deep value is replaced, then the error
        [
            words(&[0x1B, 3, 2, 1]),
            deep_array.clone(),
            words(&[2, 1]),
            deep_array,
            words(&[0xFF, 0]),
        ]
        .concat(),
        // {deep key: null, deep key: <bad type>}: the repeated deep key waits for its value
        [words(&[0x1B, 2]), deep_key.clone(), words(&[0]), deep_key, words(&[0xFF])].concat(),
    ];
    for (i, bytes) in cases.iter().enumerate() {
        let validated = gdvariant::validate(bytes, Options::godot4());
        assert!(validated.is_err(), "case {i}");
        let decoded = on_small_stack(|| gdvariant::decode(bytes, Options::godot4()).map(Box::new));
        assert_eq!(decoded.err(), validated.err(), "case {i}");
    }
    // Godot 3 accepts a property name holding a surrogate, which the `String` of an owned
    // property name cannot hold: the decode fails after reading 1023 nested arrays (in the
    // second case, two dictionary values that are), and drops them on the way out.
    // `Reference` with one property, `<U+D800>`: 7.
    let reference = [0x6566_6552, 0x636e_6572, 0x65];
    let object = [words(&[0x11, 9]), words(&reference), words(&[1, 3, 0x0080_a0ed, 2, 7])].concat();
    let deep3 = nested(&SHAPES[0], 0x13, 1022);
    let options = Options::godot3().with_allow_objects(true);
    for bytes in [
        [words(&[0x13, 2]), deep3.clone(), object.clone()].concat(),
        [words(&[0x12, 3, 0]), deep3.clone(), words(&[2, 1]), deep3, words(&[2, 2]), object]
            .concat(),
    ] {
        assert_eq!(gdvariant::validate(&bytes, options), Ok(()));
        let decoded = on_small_stack(|| gdvariant::decode(&bytes, options).map(|_| ()));
        assert_eq!(decoded.unwrap_err().kind(), ErrorKind::NotUnicode);
    }
}

/// The owned API on deep keys, on a small stack: inserting, looking up, removing, and comparing
/// keys nested 1025 levels deep (arrays, dictionaries as keys and as values).
#[test]
fn dictionary_operations_on_deep_keys_fit_a_small_stack() {
    common::with_big_stack(|| {
        for shape in 0..3 {
            // Two equal values built apart (cloning is recursive, as in all of Rust).
            let (a, b) = (deep_owned(shape, 1025), deep_owned(shape, 1025));
            for fillers in [0, 9] {
                let mut dictionary = Dictionary::new();
                for i in 0..fillers {
                    dictionary.insert(i, Variant::Nil);
                }
                let (a, b) = (&a, &b);
                let dictionary = on_small_stack(move || {
                    // Moves the key in without copying it: the value is dropped on the big stack.
                    let mut d = dictionary;
                    assert!(d.insert(Variant::from(Array::new()), 0).is_none());
                    assert!(a.same(b) && b.same(a));
                    assert!(!a.same(&Variant::Nil));
                    let what = format!("shape {shape}, {fillers} fillers");
                    assert_eq!(d.get(a), None, "{what}");
                    d
                });
                let mut dictionary = dictionary;
                dictionary.insert(a.clone(), 1);
                let dictionary = on_small_stack(move || {
                    let mut d = dictionary;
                    assert_eq!(d.get(b), Some(&Variant::Int(1)));
                    assert!(d.contains_key(a));
                    assert_eq!(d.remove(b), Some(Variant::Int(1)));
                    assert_eq!(d.get(a), None);
                    d
                });
                drop(dictionary);
            }
        }
    });
}

/// An owned value nested `levels` deep in `shape` (0 arrays, 1 dictionaries as keys, 2 as
/// values), built iteratively.
fn deep_owned(shape: usize, levels: usize) -> Variant {
    let mut value = match shape {
        0 => Variant::from(Array::new()),
        _ => Variant::Dictionary(Box::default()),
    };
    for _ in 1..levels {
        value = match shape {
            0 => Variant::from(Array::from(vec![value])),
            1 => {
                let mut d = Dictionary::new();
                d.insert(value, Variant::Nil);
                Variant::Dictionary(Box::new(d))
            }
            _ => {
                let mut d = Dictionary::new();
                d.insert(Variant::Nil, value);
                Variant::Dictionary(Box::new(d))
            }
        };
    }
    value
}

#[test]
fn encoding_past_the_depth_limit_is_refused_on_a_small_stack() {
    common::with_big_stack(|| {
        // (shape, levels): building dictionaries as keys hashes each key from its entries' kept
        // hashes, O(1) a level.
        let cases = [(0, 1026), (0, 100_000), (1, 1026), (1, 100_000), (2, 1026), (2, 100_000)];
        for (shape, levels) in cases {
            let value = deep_owned(shape, levels);
            for version in [Version::Godot4, Version::Godot3] {
                let what = format!("{version:?} {} levels of shape {shape}", levels);
                let result = on_small_stack(|| {
                    let options = EncodeOptions::new(version);
                    let encoded = gdvariant::encode(&value, options).map(|_| ());
                    let mut buffer = [0u8; 64];
                    let into = value
                        .encode_into(gdvariant::encoder::SliceOutput::new(&mut buffer), options)
                        .map(|_| ());
                    (encoded, into)
                });
                assert_eq!(result.0, Err(EncodeError::DepthLimit), "{what}");
                // A small fixed output fills up before the depth limit is reached.
                assert!(result.1.is_err(), "{what}");
            }
            // The deepest value Godot reads is written.
            if levels == 1026 {
                let deepest = deep_owned(shape, 1025);
                let bytes = on_small_stack(|| gdvariant::encode(&deepest, EncodeOptions::godot4()));
                let header = 0x1B + u32::from(shape == 0);
                assert!(bytes.unwrap() == nested(&SHAPES[shape], header, 1025), "shape {shape}");
            }
            // Dropping is iterative: on the small stack too.
            on_small_stack(move || drop(value));
        }
    });
}
