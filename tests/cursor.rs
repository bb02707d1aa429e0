//! `Cursor`: the one-pass stream of events gives exactly what the container iterators give (the
//! same values, offsets, ends and errors), on both engines' corpora and on mutations of them;
//! `skip` ends where `parse_prefix` says; the whole stream reads every byte once.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::{corpus_files, options_for, with_big_stack};
use gdvariant::{
    EncodeOptions, Error, Options, Variant, VariantRef, Version, view::Cursor, view::Element,
    view::Event, view::ObjectRef, view::Read,
};

/// One event, reduced to what can be compared.
#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Leaf { offset: usize, len: usize },
    Open { offset: usize, len: usize },
    Property { offset: usize },
    Close { end: usize },
    Error(Error),
}

/// The events of the cursor over `bytes`.
fn cursor_events(bytes: &[u8], options: Options) -> Vec<Seen> {
    Cursor::new(bytes, options)
        .map(|event| match event {
            Ok(Event::Leaf(e)) => Seen::Leaf { offset: e.offset(), len: e.len() },
            Ok(Event::Open { value, offset }) => Seen::Open { offset, len: children(value) },
            Ok(Event::Property(name)) => Seen::Property { offset: name.offset() },
            Ok(Event::Close { end }) => Seen::Close { end },
            Err(error) => Seen::Error(error),
        })
        .collect()
}

/// The number of children a container head declares.
fn children(value: VariantRef<'_>) -> usize {
    match value {
        VariantRef::Array(a) => a.len(),
        VariantRef::Dictionary(d) => d.len(),
        VariantRef::Object(ObjectRef::Full(o)) => o.len(),
        _ => usize::MAX,
    }
}

/// The same events, produced by recursing through the public container iterators, for a
/// value that `parse_prefix` accepts.
fn reference_events(element: Element<'_>) -> Vec<Seen> {
    let mut out = Vec::new();
    reference(element, &mut out).unwrap();
    out
}

/// Events of one element found by an iterator (whose structure is known to be good).
fn reference(element: Element<'_>, out: &mut Vec<Seen>) -> Result<(), ()> {
    let value = element.value();
    if children(value) == usize::MAX {
        out.push(Seen::Leaf { offset: element.offset(), len: element.len() });
        return Ok(());
    }
    reference_value(value, element.offset(), out)
}

/// Events of a container value whose header is at `offset`, through its iterators.
fn reference_value(value: VariantRef<'_>, offset: usize, out: &mut Vec<Seen>) -> Result<(), ()> {
    let fail = |out: &mut Vec<Seen>, error| {
        out.push(Seen::Error(error));
        Err(())
    };
    let end = match value {
        VariantRef::Array(a) => {
            out.push(Seen::Open { offset: a.offset(), len: a.len() });
            let mut end = None;
            for element in a.elements() {
                match element {
                    Ok(e) => {
                        end = Some(e.offset() + e.len());
                        reference(e, out)?
                    }
                    Err(error) => return fail(out, error),
                }
            }
            end
        }
        VariantRef::Dictionary(d) => {
            out.push(Seen::Open { offset: d.offset(), len: d.len() });
            let mut end = None;
            for entry in d.entries() {
                match entry {
                    Ok((k, v)) => {
                        reference(k, out)?;
                        end = Some(v.offset() + v.len());
                        reference(v, out)?;
                    }
                    Err(error) => return fail(out, error),
                }
            }
            end
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            out.push(Seen::Open { offset, len: o.len() });
            let mut end = None;
            for property in o.properties() {
                match property {
                    Ok((name, v)) => {
                        out.push(Seen::Property { offset: name.offset() });
                        end = Some(v.offset() + v.len());
                        reference(v, out)?;
                    }
                    Err(error) => return fail(out, error),
                }
            }
            end
        }
        _ => unreachable!(),
    };
    // An empty container ends after its head: take it from the last Open's own extent.
    let end = match end {
        Some(end) => end,
        None => return close_empty(value, out),
    };
    out.push(Seen::Close { end });
    Ok(())
}

/// The Close of an empty container: its end is where the iterator's first element would start,
/// which the public API gives through `parse_prefix` of the container's own bytes.
fn close_empty(value: VariantRef<'_>, out: &mut Vec<Seen>) -> Result<(), ()> {
    let _ = value;
    // Found from the preceding Open: an empty container's bytes are its head only; the caller
    // compares ends of non-empty containers, and `Close` of an empty one is checked separately.
    out.push(Seen::Close { end: usize::MAX });
    Ok(())
}

/// Replaces the end of each empty container's Close (which the reference cannot see) by the
/// cursor's, after checking it against `parse_prefix` of the container's own bytes.
fn align_empty_closes(bytes: &[u8], options: Options, cursor: &[Seen], reference: &mut [Seen]) {
    for (i, seen) in reference.iter_mut().enumerate() {
        if *seen == (Seen::Close { end: usize::MAX }) {
            if let (Some(Seen::Close { end }), Some(Seen::Open { offset, .. })) =
                (cursor.get(i), cursor.get(i.wrapping_sub(1)))
            {
                let own = gdvariant::parse_prefix(&bytes[*offset..], options).unwrap();
                assert_eq!(*end, offset + own.len(), "an empty container ends after its head");
                *seen = Seen::Close { end: *end };
            }
        }
    }
}

/// `Cursor::next_read` gives the steps of the cursor's events, each leaf's value the one its
/// element reads, and the same error at the same place.
fn check_reads(bytes: &[u8], options: Options, what: &str) {
    let describe_event = |event: Result<Event<'_>, Error>| match event {
        Ok(Event::Leaf(element)) => format!("leaf {:?}", element.value()),
        Ok(Event::Open { value, .. }) => format!("open {value:?}"),
        Ok(Event::Property(name)) => format!("property {name:?}"),
        Ok(Event::Close { .. }) => String::from("close"),
        Err(error) => format!("error {error:?}"),
    };
    let describe_read = |read: Result<Read<'_>, Error>| match read {
        Ok(read @ Read::Value(value)) if read.opens() => format!("open {value:?}"),
        Ok(Read::Value(value)) => format!("leaf {value:?}"),
        Ok(Read::Property(name)) => format!("property {name:?}"),
        Ok(Read::Close) => String::from("close"),
        Err(error) => format!("error {error:?}"),
    };
    let events: Vec<String> = Cursor::new(bytes, options).map(describe_event).collect();
    let mut cursor = Cursor::new(bytes, options);
    let reads: Vec<String> = std::iter::from_fn(|| cursor.next_read()).map(describe_read).collect();
    assert_eq!(reads, events, "{what}");
}

/// The cursor fails exactly when `parse_prefix` (the structural walk) fails, with the same
/// error, after events that are all good; otherwise its events are the iterators' and it ends
/// where `parse_prefix` says the value ends.
fn check(bytes: &[u8], options: Options, what: &str) {
    check_reads(bytes, options, what);
    let cursor = cursor_events(bytes, options);
    match gdvariant::parse_prefix(bytes, options) {
        Err(error) => {
            assert_eq!(cursor.last(), Some(&Seen::Error(error)), "{what}");
            let errors = cursor.iter().filter(|s| matches!(s, Seen::Error(_))).count();
            assert_eq!(errors, 1, "{what}");
        }
        Ok(element) => {
            let mut reference = reference_events(element);
            align_empty_closes(bytes, options, &cursor, &mut reference);
            assert_eq!(cursor, reference, "{what}");
            let end = match cursor.last() {
                Some(Seen::Close { end }) => *end,
                Some(Seen::Leaf { offset, len }) => offset + len,
                other => panic!("{what}: the stream ends with {other:?}"),
            };
            assert_eq!(end.min(bytes.len()), element.len(), "{what}");
        }
    }
}

#[test]
fn the_cursor_gives_what_the_iterators_give_on_both_corpora() {
    with_big_stack(|| {
        for version in [Version::Godot3, Version::Godot4] {
            for path in corpus_files(version, u64::MAX) {
                let bytes = std::fs::read(&path).unwrap();
                for allow in [false, true] {
                    check(&bytes, options_for(version, allow), &path.display().to_string());
                }
            }
        }
    });
}

#[test]
fn the_cursor_gives_what_the_iterators_give_on_cut_and_mutated_values() {
    with_big_stack(|| {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut random = move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            state.wrapping_mul(0x2545_F491_4F6C_DD1D)
        };
        for version in [Version::Godot3, Version::Godot4] {
            for path in corpus_files(version, 4096) {
                let bytes = std::fs::read(&path).unwrap();
                let options = options_for(version, true);
                for cut in 0..bytes.len() {
                    check(&bytes[..cut], options, &format!("{} cut at {cut}", path.display()));
                }
                for round in 0..40 {
                    let mut mutated = bytes.clone();
                    let i = (random() as usize) % mutated.len().max(1);
                    if let Some(byte) = mutated.get_mut(i) {
                        *byte = random() as u8;
                    }
                    check(&mutated, options, &format!("{} mutation {round}", path.display()));
                }
            }
        }
    });
}

#[test]
fn skip_container_passes_over_the_rest_of_a_container() {
    // Godot 4.6: var_to_bytes({"a": {"b": {"c": [1, 2, {"d": null}]}}, "e": []})
    let bytes = common::corpus(Version::Godot4, "dict_nested");
    let options = Options::godot4();
    let mut cursor = Cursor::new(&bytes, options);
    assert!(matches!(cursor.next(), Some(Ok(Event::Open { offset: 0, .. }))));
    assert!(matches!(cursor.next(), Some(Ok(Event::Leaf(_))))); // "a"
    let Some(Ok(Event::Open { offset, .. })) = cursor.next() else { panic!("not a container") };
    let inner = gdvariant::parse_prefix(&bytes[offset..], options).unwrap();
    assert_eq!(cursor.depth(), 2);
    assert_eq!(cursor.skip_container(), Ok(Some(offset + inner.len())));
    assert_eq!(cursor.depth(), 1);
    let Some(Ok(Event::Leaf(e))) = cursor.next() else { panic!("not the key e") };
    assert_eq!(e.value().as_gd_str().unwrap().to_str(), Ok("e"));
    assert!(matches!(cursor.next(), Some(Ok(Event::Open { .. }))));
    assert!(matches!(cursor.next(), Some(Ok(Event::Close { .. }))));
    assert_eq!(cursor.skip_container(), Ok(Some(bytes.len())));
    assert!(cursor.next().is_none());
    assert_eq!(cursor.skip_container(), Ok(None));
}

#[test]
fn the_deepest_accepted_value_streams_and_one_level_more_is_refused() {
    for depth in [1024usize, 1025] {
        let mut bytes = Vec::new();
        for _ in 0..depth {
            bytes.extend_from_slice(&28u32.to_le_bytes());
            bytes.extend_from_slice(&1u32.to_le_bytes());
        }
        bytes.extend_from_slice(&0u32.to_le_bytes());
        let options = Options::godot4();
        let events: Vec<_> = Cursor::new(&bytes, options).collect();
        match gdvariant::validate(&bytes, options) {
            Ok(()) => {
                assert_eq!(events.len(), 2 * depth + 1);
                assert!(events.iter().all(Result::is_ok));
            }
            Err(error) => assert!(matches!(events.last(), Some(Err(e)) if *e == error)),
        }
    }
}

/// Around the 32 levels a new cursor sets up (past them it moves its open containers to its full
/// stack): values whose every level holds a nested container then a leaf after it, so that each
/// level's count must survive the move, give the iterators' events, cut anywhere too; a tape and
/// the lossless JSON writer read them whole.
#[test]
fn values_nested_past_the_cursors_first_levels_keep_every_level() {
    with_big_stack(|| {
        for depth in [30usize, 31, 32, 33, 34, 40, 70] {
            for dictionaries in [false, true] {
                // Level by level: [inner, 7] or {"k": inner, "n": 7}; innermost: 7.
                let mut value = Variant::from(7);
                for _ in 0..depth {
                    value = if dictionaries {
                        let mut level = gdvariant::owned::Dictionary::new();
                        level.insert("k", value);
                        level.insert("n", 7);
                        Variant::from(level)
                    } else {
                        Variant::from(vec![value, Variant::from(7)])
                    };
                }
                for version in [Version::Godot3, Version::Godot4] {
                    let bytes = gdvariant::encode(&value, EncodeOptions::new(version)).unwrap();
                    let options = Options::new(version);
                    let what = format!("{depth} levels, dictionaries {dictionaries}, {version:?}");
                    check(&bytes, options, &what);
                    let leaves = cursor_events(&bytes, options)
                        .iter()
                        .filter(|s| matches!(s, Seen::Leaf { .. }))
                        .count();
                    let keys = if dictionaries { 2 * depth } else { 0 };
                    assert_eq!(leaves, depth + 1 + keys, "{what}");
                    // A tape (whose cursor keeps its open containers on the heap) gives the same.
                    let tape = gdvariant::view::Tape::new(&bytes, options).unwrap();
                    assert_eq!(tape_events(&tape), cursor_events(&bytes, options), "{what}");
                    // So does the JSON written with that cursor: every level opened and closed.
                    let parsed = gdvariant::parse(&bytes, options).unwrap();
                    let json = gdvariant::json::to_json(parsed).unwrap();
                    let (open, close) = if dictionaries {
                        (r#"{"type":"Dictionary","entries":[["k","#, r#"],["n",7]]}"#)
                    } else {
                        ("[", ",7]")
                    };
                    let expected = format!("{}7{}", open.repeat(depth), close.repeat(depth));
                    assert_eq!(json, expected, "{what}: JSON");
                    for cut in (0..bytes.len()).step_by(4) {
                        check(&bytes[..cut], options, &format!("{what}, cut at {cut}"));
                    }
                }
            }
        }
    });
}

/// The events a tape replays: each part with its children, from the tape alone.
fn tape_events(tape: &gdvariant::view::Tape<'_>) -> Vec<Seen> {
    fn visit(part: gdvariant::view::Part<'_, '_>, out: &mut Vec<Seen>) {
        if part.name().is_some() {
            out.push(Seen::Property { offset: part.offset() + 4 });
            return;
        }
        let element = part.element();
        let value = part.value();
        if children(value) == usize::MAX {
            out.push(Seen::Leaf { offset: element.offset(), len: element.len() });
            return;
        }
        out.push(Seen::Open { offset: part.offset(), len: children(value) });
        for child in part.children() {
            visit(child, out);
        }
        out.push(Seen::Close { end: element.offset() + element.len() });
    }
    let mut out = Vec::new();
    visit(tape.root(), &mut out);
    out
}

#[test]
fn a_tape_replays_the_cursor_on_both_corpora() {
    with_big_stack(|| {
        for version in [Version::Godot3, Version::Godot4] {
            for path in corpus_files(version, u64::MAX) {
                let bytes = std::fs::read(&path).unwrap();
                for allow in [false, true] {
                    let options = options_for(version, allow);
                    let what = path.display().to_string();
                    match gdvariant::view::Tape::new(&bytes, options) {
                        Ok(tape) => {
                            let mut events = cursor_events(&bytes, options);
                            // A final PackedByteArray may lack its padding: ends are clamped.
                            for seen in &mut events {
                                if let Seen::Close { end } = seen {
                                    *end = (*end).min(bytes.len());
                                }
                            }
                            assert_eq!(tape_events(&tape), events, "{what}");
                            assert_eq!(
                                tape.root().element().len(),
                                tape.root().element().raw_bytes().len()
                            );
                        }
                        Err(error) => {
                            assert_eq!(gdvariant::parse_prefix(&bytes, options).unwrap_err(), error)
                        }
                    }
                }
            }
        }
    });
}
