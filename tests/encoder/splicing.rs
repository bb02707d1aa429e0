//! Splicing elements of other buffers: bytes copied exactly, versions checked.

use super::*;

#[test]
fn a_relay_rebuilds_a_dictionary_from_its_elements() {
    for version in VERSIONS {
        let options = Options::new(version);
        let original = corpus(version, "dict_mixed_keys");
        let dictionary = gdvariant::parse(&original, options).unwrap().as_dictionary().unwrap();
        let encode = EncodeOptions::new(version);
        // Unchanged: the same bytes.
        let copy = write(encode, |w| {
            w.begin_dictionary(dictionary.len())?;
            for entry in dictionary.entries() {
                let (key, value) = entry.unwrap();
                w.splice(&key)?;
                w.splice(&value)?;
            }
            Ok(())
        });
        assert_eq!(copy, original, "{version:?}");
        // The value of "s" replaced.
        let relayed = write(encode, |w| {
            w.begin_dictionary(dictionary.len())?;
            for entry in dictionary.entries() {
                let (key, value) = entry.unwrap();
                w.splice(&key)?;
                if key.value().as_gd_str().is_some_and(|s| s.to_str() == Ok("s")) {
                    w.int(99)?;
                } else {
                    w.splice(&value)?;
                }
            }
            Ok(())
        });
        let mut expected = gdvariant::decode(&original, options).unwrap();
        let slot = expected.as_dictionary_mut().unwrap().get_mut(&Variant::from("s")).unwrap();
        assert_eq!(*slot, Variant::Int(2));
        *slot = Variant::Int(99);
        assert_eq!(relayed, gdvariant::encode(&expected, encode).unwrap(), "{version:?}");
        // The same relay into a fixed buffer.
        let mut buf = vec![0u8; relayed.len()];
        let mut writer = Writer::new(gdvariant::encoder::SliceOutput::new(&mut buf), encode);
        writer.begin_dictionary(1).unwrap();
        let (key, value) = dictionary.entries().next().unwrap().unwrap();
        writer.splice(&key).unwrap();
        writer.splice(&value).unwrap();
        let out = writer.finish().unwrap();
        assert_eq!(
            gdvariant::decode(out.as_bytes(), options).unwrap().as_dictionary().unwrap().len(),
            1
        );
    }
}

#[test]
fn splicing_copies_bytes_exactly_and_checks_versions() {
    // NodePath padding as the sender wrote it (0x55 from Godot 3.2.3).
    let path = corpus(Version::Godot3, "nodepath_parent");
    let element = gdvariant::parse_prefix(&path, Options::godot3()).unwrap();
    let bytes = write(EncodeOptions::godot3(), |w| {
        w.begin_array(1)?;
        w.splice(&element)
    });
    assert_eq!(bytes[8..], path[..]);
    // A final PackedByteArray without its padding gets it.
    let packed = corpus(Version::Godot4, "packed_byte_len3");
    let cut = &packed[..packed.len() - 1];
    let element = gdvariant::parse_prefix(cut, Options::godot4()).unwrap();
    assert_eq!(element.len(), cut.len());
    assert_eq!(write(EncodeOptions::godot4(), |w| w.splice(&element)), packed);
    // A spliced element counts as one value, containers included.
    let array = corpus(Version::Godot4, "array_typed_int");
    let element = gdvariant::parse_prefix(&array, Options::godot4()).unwrap();
    let twice = write(EncodeOptions::godot4(), |w| {
        w.begin_array(2)?;
        w.splice(&element)?;
        w.splice(&element)
    });
    let value = gdvariant::decode(&twice, Options::godot4()).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 2);
    let extra = write_err(EncodeOptions::godot4(), |w| {
        w.splice(&element)?;
        w.splice(&element)
    });
    assert_eq!(extra, EncodeError::TooManyValues);
    // Elements read as the other version are refused.
    let int = corpus(Version::Godot3, "int_42");
    let element = gdvariant::parse_prefix(&int, Options::godot3()).unwrap();
    assert_eq!(
        write_err(EncodeOptions::godot4(), |w| w.splice(&element)),
        EncodeError::VersionMismatch
    );
    let element = gdvariant::parse_prefix(&int, Options::godot4()).unwrap();
    assert_eq!(
        write_err(EncodeOptions::godot3(), |w| w.splice(&element)),
        EncodeError::VersionMismatch
    );
    // A Godot 4 type inside a Godot 4 element spliced for Godot 4 is fine; a Godot 4-only
    // element type cannot be spliced into Godot 3 (the version check comes first).
    let callable = corpus(Version::Godot4, "callable_empty");
    let element = gdvariant::parse_prefix(&callable, Options::godot4()).unwrap();
    assert_eq!(write(EncodeOptions::godot4(), |w| w.splice(&element)), callable);
}

#[test]
fn splicing_does_not_recheck_what_the_element_holds() {
    // The reader's options decided what the element may hold: a full object read with
    // `allow_objects` goes through a writer without full objects, as documented.
    let bytes = corpus(Version::Godot3, "object_reference_full");
    let element =
        gdvariant::parse_prefix(&bytes, Options::godot3().with_allow_objects(true)).unwrap();
    assert_eq!(write(EncodeOptions::godot3(), |w| w.splice(&element)), bytes);
    // Nor is its nesting checked against a lowered depth limit.
    let nested = corpus(Version::Godot4, "dict_nested");
    let element = gdvariant::parse_prefix(&nested, Options::godot4()).unwrap();
    assert_eq!(write(EncodeOptions::godot4().with_max_depth(0), |w| w.splice(&element)), nested);
}
