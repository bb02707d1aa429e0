//! The writer's count bookkeeping: values per container, properties alternating names and values.

use super::*;

#[test]
fn the_writer_counts_values() {
    let g4 = EncodeOptions::godot4();
    let too_many = EncodeError::TooManyValues;
    assert_eq!(
        write_err(g4, |w| {
            w.int(1)?;
            w.int(2)
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(1)?;
            w.int(1)?;
            w.int(2)
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(0)?;
            w.nil()
        }),
        too_many
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_dictionary(1)?;
            w.int(1)?;
            w.int(2)?;
            w.int(3)
        }),
        too_many
    );
    // Missing values: the innermost open container's count (keys and values apart).
    assert_eq!(write_err(g4, |_| Ok(())), EncodeError::Unfinished { missing: 1 });
    assert_eq!(
        write_err(g4, |w| {
            w.begin_array(3)?;
            w.int(1)
        }),
        EncodeError::Unfinished { missing: 2 }
    );
    assert_eq!(
        write_err(g4, |w| {
            w.begin_dictionary(2)?;
            w.int(1)
        }),
        EncodeError::Unfinished { missing: 3 }
    );
    let nested = write_err(g4, |w| {
        w.begin_array(2)?;
        w.begin_array(2)?;
        w.int(1)
    });
    assert_eq!(nested, EncodeError::Unfinished { missing: 1 });
    // A nested container closes by itself and hands back to its parent.
    let bytes = write(g4, |w| {
        w.begin_array(2)?;
        w.begin_array(1)?;
        w.int(1)?;
        w.int(2)
    });
    let value = gdvariant::decode(&bytes, Options::godot4()).unwrap();
    assert_eq!(
        value,
        Variant::from(Array::from(vec![
            Variant::from(Array::from(vec![Variant::Int(1)])),
            Variant::Int(2)
        ]))
    );
}

#[test]
fn properties_alternate_names_and_values() {
    let full = EncodeOptions::godot4().with_full_objects(true);
    let order = EncodeError::PropertyOrder;
    // A value where a name is due.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.int(1)
        }),
        order
    );
    // A name where a value is due.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.property_name("b")
        }),
        order
    );
    // A name outside an object, or inside a container inside one.
    assert_eq!(write_err(full, |w| w.property_name("a")), order);
    assert_eq!(
        write_err(full, |w| {
            w.begin_array(1)?;
            w.property_name("a")
        }),
        order
    );
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.begin_array(1)?;
            w.property_name("b")
        }),
        order
    );
    // After a property's container closes, the next name is due.
    let bytes = write(full, |w| {
        w.begin_object("Resource", 3)?;
        w.property_name("a")?;
        w.begin_array(1)?;
        w.int(1)?;
        w.property_name("b")?;
        w.begin_dictionary(0)?;
        w.property_name("c")?;
        w.begin_object("RefCounted", 0)
    });
    let value = gdvariant::decode(&bytes, Options::godot4().with_allow_objects(true)).unwrap();
    let Variant::Object(Object::Full(object)) = value else { panic!("{value:?}") };
    let (class, properties) = (object.class, object.properties);
    assert_eq!(class, "Resource");
    let names: Vec<&str> = properties.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    // Too many properties.
    assert_eq!(
        write_err(full, |w| {
            w.begin_object("Resource", 1)?;
            w.property_name("a")?;
            w.nil()?;
            w.property_name("b")
        }),
        order
    );
}
