//! Depth: Godot's nesting limit, lowered limits, and writers made for less nesting.

use super::*;

/// `levels` arrays, each holding the next; the innermost is empty.
fn nested_arrays(w: &mut W, levels: usize) -> Step {
    for level in 0..levels {
        w.begin_array(usize::from(level + 1 < levels))?;
    }
    Ok(())
}

/// The owned form of [`nested_arrays`].
fn nested_variant(levels: usize) -> Variant {
    let mut value = Variant::from(Array::new());
    for _ in 1..levels {
        value = Variant::from(Array::from(vec![value]));
    }
    value
}

#[test]
fn depth_1024_is_written_and_1025_is_refused() {
    for version in VERSIONS {
        let options = EncodeOptions::new(version);
        // 1025 arrays: depths 0 to 1024.
        let bytes = write(options, |w| nested_arrays(w, 1025));
        assert_eq!(bytes.len(), 1025 * 8);
        gdvariant::validate(&bytes, Options::new(version)).unwrap();
        assert_eq!(write_err(options, |w| nested_arrays(w, 1026)), EncodeError::DepthLimit);
        // The innermost value may be anything, but nothing deeper.
        let around = |w: &mut W, levels: usize| -> Step {
            (0..levels).try_for_each(|_| w.begin_array(1))?;
            w.int(1)
        };
        let ok = write(options, |w| around(w, 1024));
        gdvariant::validate(&ok, Options::new(version)).unwrap();
        assert_eq!(write_err(options, |w| around(w, 1025)), EncodeError::DepthLimit);
        // Owned values: the same limits.
        let owned = nested_variant(1025);
        assert_eq!(gdvariant::encode(&owned, options).unwrap(), bytes);
        assert_eq!(gdvariant::encode(&nested_variant(1026), options), Err(EncodeError::DepthLimit));
        // A lowered limit.
        let lowered = options.with_max_depth(10);
        let bytes = write(lowered, |w| nested_arrays(w, 11));
        gdvariant::validate(&bytes, Options::new(version).with_max_depth(10)).unwrap();
        assert_eq!(write_err(lowered, |w| nested_arrays(w, 12)), EncodeError::DepthLimit);
        assert_eq!(gdvariant::encode(&nested_variant(12), lowered), Err(EncodeError::DepthLimit));
        // Dictionaries and objects count as levels too.
        let zero = options.with_max_depth(0).with_full_objects(true);
        write(zero, |w| w.begin_dictionary(0));
        write(zero, |w| w.begin_object("Resource", 0));
        let deep = write_err(zero, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.nil()
        });
        assert_eq!(deep, EncodeError::DepthLimit);
        let deep = write_err(zero, |w| {
            w.begin_dictionary(1)?;
            w.nil()
        });
        assert_eq!(deep, EncodeError::DepthLimit);
    }
    // Limits above 1024 are clamped.
    assert_eq!(EncodeOptions::godot4().with_max_depth(u16::MAX).max_depth(), 1024);
}

#[test]
fn a_lighter_writer_nests_as_deep_as_it_was_made_for() {
    // Three containers open at once: an array in a dictionary in an array.
    let mut writer = Writer::<_, 3>::with_nesting(Vec::new(), EncodeOptions::godot4());
    writer.begin_array(1).unwrap();
    writer.begin_dictionary(1).unwrap();
    writer.string("k").unwrap();
    writer.begin_array(1).unwrap();
    assert_eq!(writer.begin_array(1), Err(EncodeError::DepthLimit));
    // The same value with room for it equals what the default writer writes.
    let build = |w: &mut Writer<Vec<u8>, 4>| {
        w.begin_array(1)?;
        w.begin_dictionary(1)?;
        w.string("k")?;
        w.begin_array(1)?;
        w.begin_array(0)
    };
    let mut light = Writer::<_, 4>::with_nesting(Vec::new(), EncodeOptions::godot4());
    build(&mut light).unwrap();
    let light = light.finish().unwrap();
    let mut full = Writer::new(Vec::new(), EncodeOptions::godot4());
    full.begin_array(1).unwrap();
    full.begin_dictionary(1).unwrap();
    full.string("k").unwrap();
    full.begin_array(1).unwrap();
    full.begin_array(0).unwrap();
    assert_eq!(light, full.finish().unwrap());
    gdvariant::validate(&light, Options::godot4()).unwrap();
}
