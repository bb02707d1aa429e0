//! Hostile counts: nothing allocated lazily, `decode` within its bound on dense inputs
//! and hostile shapes.

use super::*;

#[test]
fn hostile_counts_allocate_nothing_lazily_and_o_n_when_decoded() {
    let cases = hostile_count_cases();
    let (mut accepted, mut refused_count) = (0, 0);
    for Case { what, options, bytes, expect } in &cases {
        let (what, options) = (what.as_str(), *options);
        assert!(bytes.len() <= 20, "{what}: {} bytes", bytes.len());
        let (validated, prefix, walked) = lazy_results(what, bytes, options);
        let parsed = no_alloc(what, || gdvariant::parse(bytes, options).map(|_| ()));
        let (decoded, _) = bounded_decode(what, bytes, options);
        match expect {
            Expect::Accepted(items) => {
                accepted += 1;
                validated.unwrap_or_else(|e| panic!("{what}: {e}"));
                assert!(prefix.is_ok_and(|len| len <= bytes.len()), "{what}: {prefix:?}");
                // The container and its Nil items (or `null: null` entries) are visited.
                let per_item = if bytes[0] == 0x1B || bytes[0] == 0x12 { 2 } else { 1 };
                assert_eq!(walked, Ok(1 + per_item * items), "{what}");
                let value = gdvariant::parse(bytes, options).unwrap();
                assert_eq!(declared_items(value), *items, "{what}");
                let decoded = decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
                let len = match &decoded {
                    Variant::Array(a) => a.len(),
                    Variant::Dictionary(d) => d.len(),
                    Variant::PackedStringArray(s) => s.len(),
                    Variant::NodePath(p) => p.names.len() + p.subnames.len(),
                    Variant::Object(gdvariant::owned::Object::Full(object)) => {
                        object.properties.len()
                    }
                    other => panic!("{what}: decoded {other:?}"),
                };
                assert_eq!(len, *items, "{what}");
            }
            Expect::Refused(expected) => {
                refused_count += 1;
                assert_eq!(validated, Err(*expected), "{what}");
                assert_eq!(prefix, Err(*expected), "{what}");
                assert_eq!(walked, Err(*expected), "{what}");
                assert_eq!(decoded, Err(*expected), "{what}");
                // The head of every refused case is refused at once, by parse too.
                assert_eq!(parsed, Err(*expected), "{what}");
            }
        }
    }
    // 13 counts x (Godot 4: 2 + 13 packed + 1 object + 6 NodePath + 6 typed = 28;
    // Godot 3: 2 + 7 + 1 + 6 = 16).
    assert_eq!(cases.len(), 13 * (28 + 16));
    assert_eq!(accepted + refused_count, cases.len());
    assert!(accepted >= 20 && refused_count >= 400, "{accepted} accepted, {refused_count} refused");
}

/// The densest valid inputs of each container kind: the most owned memory per input byte.
fn dense_inputs(n: u32) -> Vec<(&'static str, Version, Options, Vec<u8>)> {
    let g4 = Options::godot4();
    let g3 = Options::godot3();
    let nils = |header: u32| {
        let mut ws = vec![header, n];
        ws.extend(std::iter::repeat_n(0, n as usize));
        words(&ws)
    };
    // Distinct keys (a repeated key is one entry): {0: null, 1: null, ...}.
    let int_keys = |header: u32| {
        let mut ws = vec![header, n];
        for i in 0..n {
            ws.extend([2, i, 0]);
        }
        words(&ws)
    };
    let empty_containers = |outer: u32, inner: u32| {
        let mut ws = vec![outer, n];
        for _ in 0..n {
            ws.extend([inner, 0]);
        }
        words(&ws)
    };
    let node_path = |id: u32| {
        let mut ws = vec![id, 0x8000_0000 | n, n, 0];
        ws.extend(std::iter::repeat_n(0, 2 * n as usize));
        words(&ws)
    };
    let strings = |id: u32| {
        let mut ws = vec![id, n];
        ws.extend(std::iter::repeat_n(0, n as usize));
        words(&ws)
    };
    let object = |id: u32| {
        let mut bytes = [words(&[id]), gd_string("Node"), words(&[n])].concat();
        for _ in 0..n {
            bytes.extend(words(&[0, 0])); // "" = null
        }
        bytes
    };
    let one_char_strings = |array: u32| {
        let mut ws = vec![array, n];
        for _ in 0..n {
            ws.extend([4, 1, u32::from(b'x')]);
        }
        words(&ws)
    };
    vec![
        ("Array of nulls", Version::Godot4, g4, nils(0x1C)),
        ("Dictionary of int: null", Version::Godot4, g4, int_keys(0x1B)),
        ("Array of empty Arrays", Version::Godot4, g4, empty_containers(0x1C, 0x1C)),
        ("Array of empty Dictionaries", Version::Godot4, g4, empty_containers(0x1C, 0x1B)),
        ("Array of one-byte Strings", Version::Godot4, g4, one_char_strings(0x1C)),
        ("NodePath of empty names", Version::Godot4, g4, node_path(22)),
        ("PackedStringArray of empty strings", Version::Godot4, g4, strings(34)),
        ("Object of null properties", Version::Godot4, g4.with_allow_objects(true), object(24)),
        ("Array of nulls", Version::Godot3, g3, nils(0x13)),
        ("Dictionary of int: null", Version::Godot3, g3, int_keys(0x12)),
        ("Array of empty Dictionaries", Version::Godot3, g3, empty_containers(0x13, 0x12)),
        ("PoolStringArray of empty strings", Version::Godot3, g3, strings(23)),
        ("Object of null properties", Version::Godot3, g3.with_allow_objects(true), object(17)),
    ]
}

#[test]
fn dense_inputs_decode_within_the_bound() {
    for n in [1, 7, 100, 4099] {
        for (what, version, options, bytes) in dense_inputs(n) {
            let what = format!("{version:?} {what} ({n})");
            gdvariant::validate(&bytes, options).unwrap_or_else(|e| panic!("{what}: {e}"));
            let (decoded, allocated) = bounded_decode(&what, &bytes, options);
            decoded.unwrap_or_else(|e| panic!("{what}: {e}"));
            if std::env::var_os("ALLOC_TRACE").is_some() {
                eprintln!("{what}: {} bytes in, {allocated} allocated", bytes.len());
            }
            // The lazy walk of a valid input allocates nothing either.
            no_alloc(&what, || parse_and_walk(&bytes, options)).unwrap();
        }
    }
}

/// The inputs that cost `decode` the most memory per input byte before it validated first,
/// and the densest ones since: (what, bytes), Godot 4.
fn hostile_shapes() -> Vec<(String, Vec<u8>)> {
    const A: u32 = 0x1C;
    const D: u32 = 0x1B;
    let n = 4000usize;
    let nest = |levels: usize, open: &[u32], innermost: &[u32], close: &[u32]| {
        let mut ws = Vec::new();
        for _ in 1..levels {
            ws.extend(open);
        }
        ws.extend(innermost);
        for _ in 1..levels {
            ws.extend(close);
        }
        ws
    };
    let items: Vec<(&str, Vec<u32>)> = vec![
        ("null", vec![0]),
        ("{}", vec![D, 0]),
        ("[null]", vec![A, 1, 0]),
        ("{{}: {}}", vec![D, 1, D, 0, D, 0]),
        ("{null: {}}", vec![D, 1, 0, D, 0]),
        ("{{null: null}: null}", vec![D, 1, D, 1, 0, 0, 0]),
        ("100 nested arrays", nest(100, &[A, 1], &[A, 0], &[])),
        ("100 dictionaries nested as keys", nest(100, &[D, 1], &[D, 0], &[0])),
        ("100 dictionaries nested as values", nest(100, &[D, 1, 0], &[D, 0], &[])),
    ];
    let mut out = Vec::new();
    for (name, item) in &items {
        let len = 8 + 4 * item.len() * n;
        // An array of the items, and arrays and dictionaries that claim more than they hold
        // (each count reserved as far as the bytes left could hold, before).
        for (what, header, count) in
            [("array", A, n), ("lying array", A, len / 4), ("lying dictionary", D, len / 8 + 100)]
        {
            let mut ws = vec![header, count as u32];
            for i in 0..n {
                if header == D {
                    ws.extend([2, i as u32]);
                }
                ws.extend(item);
            }
            out.push((format!("{what} of {name}"), words(&ws)));
        }
        // A dictionary of int keys and these values.
        let mut ws = vec![D, n as u32];
        for i in 0..n {
            ws.extend([2, i as u32]);
            ws.extend(item);
        }
        out.push((format!("dictionary of int: {name}"), words(&ws)));
    }
    // Nested lying counts.
    for (what, level) in [
        ("arrays", vec![A, 0x3fff_ffff]),
        ("dictionaries as keys", vec![D, 0x3fff_ffff]),
        ("dictionaries as values", vec![D, 0x3fff_ffff, 0]),
    ] {
        out.push((format!("1000 nested lying {what}"), words(&level.repeat(1000))));
    }
    // The deepest nesting of every shape, and its densest: dictionaries whose key and value are
    // both dictionaries.
    out.push(("1025 nested arrays".into(), words(&nest(1025, &[A, 1], &[A, 0], &[]))));
    out.push(("1025 keys".into(), words(&nest(1025, &[D, 1], &[D, 0], &[0]))));
    out.push(("1025 values".into(), words(&nest(1025, &[D, 1, 0], &[D, 0], &[]))));
    out.push(("1024 {key: {}}".into(), words(&nest(1024, &[D, 1], &[D, 0], &[D, 0]))));
    // Repeated keys: each repeat is hashed, compared and dropped; a replaced value is dropped.
    for (what, entry) in [
        ("{}: null", vec![D, 0, 0]),
        ("{}: {}", vec![D, 0, D, 0]),
        ("null: {}", vec![0, D, 0]),
        ("null: null", vec![0, 0]),
    ] {
        let mut ws = vec![D, n as u32];
        for _ in 0..n {
            ws.extend(&entry);
        }
        out.push((format!("{n} x {what}"), words(&ws)));
    }
    let deep_key = nest(1024, &[D, 1], &[D, 0], &[0]);
    let deep_value = nest(1023, &[D, 1, 0], &[D, 0], &[]);
    for fillers in [0u32, 9] {
        let mut twice = vec![D, fillers + 2];
        let mut replaced = vec![D, fillers + 2];
        for i in 0..fillers {
            twice.extend([2, i, 0]);
            replaced.extend([2, i, 0]);
        }
        for value in [1, 2] {
            twice.extend(&deep_key);
            twice.extend([2, value]);
            replaced.extend([2, 1000]);
            replaced.extend(&deep_value);
        }
        out.push((format!("a 1024-deep key twice, {fillers} other keys"), words(&twice)));
        out.push((format!("a 1023-deep value replaced, {fillers} other keys"), words(&replaced)));
    }
    // A key holding every dictionary: all of them are hashed.
    let mut ws = vec![D, 1, A, n as u32];
    for _ in 0..n {
        ws.extend([D, 0]);
    }
    ws.push(0);
    out.push((format!("a key of {n} {{}}"), words(&ws)));
    out
}

#[test]
fn hostile_shapes_decode_within_the_bound() {
    let shapes = hostile_shapes();
    let mut report = Vec::new();
    for (what, bytes) in &shapes {
        let (decoded, allocated) = bounded_decode(what, bytes, Options::godot4());
        assert_eq!(decoded.err(), gdvariant::validate(bytes, Options::godot4()).err(), "{what}");
        report.push((allocated as f64 / bytes.len() as f64, what));
    }
    assert!(shapes.len() >= 50, "{}", shapes.len());
    report.sort_by(|a, b| b.0.total_cmp(&a.0));
    if std::env::var_os("ALLOC_TRACE").is_some() {
        for (per_byte, what) in &report {
            eprintln!("{per_byte:5.1} bytes per input byte: {what}");
        }
    }
}
