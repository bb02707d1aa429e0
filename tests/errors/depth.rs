//! Depth and stack safety: the limit where Godot's is, a megabyte of nesting refused
//! without overflowing the stack.

use super::*;

const INT_5: [u32; 2] = [2, 5];

/// The innermost container: empty, or holding the int 5 (followed by the word `value` when the
/// container is a dictionary, making `{5: null}`).
fn push_innermost(ws: &mut Vec<u32>, header: u32, innermost_int: bool, value: Option<u32>) {
    if innermost_int {
        ws.extend([header, 1]);
        ws.extend(INT_5);
        ws.extend(value);
    } else {
        ws.extend([header, 0]);
    }
}

/// `levels` arrays, each the only element of the one above; the innermost is empty, or holds
/// the int 5.
pub(crate) fn nested_arrays(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1]);
    }
    push_innermost(&mut ws, header, innermost_int, None);
    words(&ws)
}

/// `levels` dictionaries, each the value of the key `null` in the one above; the innermost is
/// empty, or holds `{5: null}`. Level k's header is at 12 * (k - 1).
fn dicts_as_values(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1, 0]);
    }
    push_innermost(&mut ws, header, innermost_int, Some(0));
    words(&ws)
}

/// `levels` dictionaries, each the only key (with value `null`) of the one above; the innermost
/// is empty, or holds `{5: null}`. Level k's header is at 8 * (k - 1).
fn dicts_as_keys(header: u32, levels: usize, innermost_int: bool) -> Vec<u8> {
    let mut ws = Vec::new();
    for _ in 1..levels {
        ws.extend([header, 1]);
    }
    push_innermost(&mut ws, header, innermost_int, Some(0));
    ws.extend(std::iter::repeat_n(0u32, levels - 1));
    words(&ws)
}

type Builder = fn(u32, usize, bool) -> Vec<u8>;

#[test]
fn depth_limit_is_godots() {
    let shapes: [(&str, Builder, usize, bool); 3] = [
        // (name, builder, bytes per level before the child, dictionary?)
        ("arrays", nested_arrays, 8, false),
        ("dicts as values", dicts_as_values, 12, true),
        ("dicts as keys", dicts_as_keys, 8, true),
    ];
    for (version, array, dict) in [(Version::Godot4, 0x1C, 0x1B), (Version::Godot3, 0x13, 0x12)] {
        let o = opts(version);
        assert_eq!(o.max_depth(), 1024);
        for (shape, build, stride, is_dict) in shapes {
            let header = if is_dict { dict } else { array };
            let what = format!("{version:?} {shape}");
            // 1025 levels: depths 0..=1024, accepted.
            let ok = build(header, 1025, false);
            gdvariant::validate(&ok, o).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(gdvariant::parse_prefix(&ok, o).unwrap().len(), ok.len(), "{what}");
            // 1026 levels: the 1026th header (depth 1025) is refused. For dictionaries nested as
            // values, the 1025th dictionary's key (a Nil, also at depth 1025) comes first and is
            // refused first, as in Godot (keys and values are both decoded at depth + 1).
            let deep = build(header, 1026, false);
            let deep_at = if stride == 12 { stride * 1024 + 8 } else { stride * 1025 };
            let expected = Error::new(deep_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deep, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&deep, o).unwrap_err(), expected, "{what}");
            assert_eq!(expected.godot_error(version), Some(GodotError::OutOfMemory));
            // Lazily: the top parses (O(1)); reaching its child walks down to the problem.
            let top = gdvariant::parse(&deep, o).unwrap();
            let first = match top {
                VariantRef::Array(a) => a.get(0).map(|_| ()),
                VariantRef::Dictionary(d) => d.iter().next().unwrap().map(|_| ()),
                _ => unreachable!(),
            };
            assert_eq!(first.unwrap_err(), expected, "{what}");
            // 1025 levels whose innermost holds an int: the int (an array element, or a
            // dictionary key) is at depth 1025.
            let deep_int = build(header, 1025, true);
            let int_at = stride * 1024 + 8;
            assert_eq!(&deep_int[int_at..int_at + 8], &words(&INT_5)[..], "{what}");
            let expected = Error::new(int_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&deep_int, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&deep_int, o).unwrap_err(), expected, "{what}");
            // One level less is fine.
            gdvariant::validate(&build(header, 1024, true), o).unwrap();

            // A custom limit of 3: depths 0..=3, i.e. exactly 4 levels.
            let o3 = o.with_max_depth(3);
            assert_eq!(o3.max_depth(), 3);
            gdvariant::validate(&build(header, 4, false), o3).unwrap();
            lazy_all(&build(header, 4, false), o3).unwrap();
            let five_at = if stride == 12 { stride * 3 + 8 } else { stride * 4 };
            let expected = Error::new(five_at, ErrorKind::DepthLimit);
            assert_eq!(gdvariant::validate(&build(header, 5, false), o3).unwrap_err(), expected);
            assert_eq!(lazy_all(&build(header, 5, false), o3).unwrap_err(), expected);
            assert_eq!(
                gdvariant::parse_prefix(&build(header, 5, false), o3).unwrap_err(),
                expected
            );
        }
    }
    assert_eq!(Options::godot4().with_max_depth(5000).max_depth(), 1024);
    assert_eq!(Options::godot3().with_max_depth(1025).max_depth(), gdvariant::MAX_DEPTH);
    assert_eq!(Options::godot4().with_max_depth(0).max_depth(), 0);
    // Depth 0: only scalars and empty containers.
    let zero = Options::godot4().with_max_depth(0);
    gdvariant::validate(&words(&[0x1C, 0]), zero).unwrap();
    assert_eq!(
        gdvariant::validate(&words(&[0x1C, 1, 0]), zero).unwrap_err(),
        Error::new(8, ErrorKind::DepthLimit)
    );
}

/// Descends from the top value through the first element / first key, iteratively.
fn descend(bytes: &[u8], options: Options) -> Result<usize, Error> {
    let mut value = gdvariant::parse(bytes, options)?;
    let mut levels = 1;
    loop {
        let next = match value {
            VariantRef::Array(a) => a.get(0)?,
            VariantRef::Dictionary(d) => match d.iter().next() {
                Some(entry) => Some(entry?.0),
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

#[test]
fn a_megabyte_of_nesting_is_refused_without_overflowing_the_stack() {
    const MIB: usize = 1 << 20;
    for (version, header) in
        [(Version::Godot4, 0x1Cu32), (Version::Godot3, 0x13), (Version::Godot4, 0x1B)]
    {
        let bytes: Vec<u8> = words(&[header, 1]).repeat(MIB / 8);
        assert_eq!(bytes.len(), MIB);
        let o = opts(version);
        let expected = Error::new(8 * 1025, ErrorKind::DepthLimit);
        assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected);
        assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected);
        assert_eq!(descend(&bytes, o).unwrap_err(), expected);
        // The same with objects allowed and with a small custom limit.
        let o10 = o.with_allow_objects(true).with_max_depth(10);
        let expected = Error::new(8 * 11, ErrorKind::DepthLimit);
        assert_eq!(gdvariant::validate(&bytes, o10).unwrap_err(), expected);
        assert_eq!(descend(&bytes, o10).unwrap_err(), expected);
    }
    // And the descent really descends: on 100 levels it reaches the innermost array.
    assert_eq!(descend(&nested_arrays(0x1C, 100, false), Options::godot4()), Ok(100));
    assert_eq!(descend(&dicts_as_keys(0x1B, 100, false), Options::godot4()), Ok(100));
}
