//! `Debug` of owned values is printed without recursion, in the format the derived
//! implementations wrote: `tests/golden/owned_debug.txt` holds that output (plain, `{:#?}`, and
//! both with a precision) for values of every kind, typed containers, objects and nesting.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

use gdvariant::math::{Color, Vector2};
use gdvariant::{
    ElementType, Variant, VariantType, owned::Array, owned::Dictionary, owned::NodePath,
    owned::Object, owned::Signal,
};

/// The values of the golden file, by name.
fn samples() -> Vec<(&'static str, Variant)> {
    let mut typed = Array::typed(ElementType::Builtin(VariantType::Int));
    typed.push(Variant::Int(3));
    let mut d = Dictionary::new();
    d.insert("a\n\"b", 1.5f64);
    d.insert(Variant::from(Array::new()), Variant::Dictionary(Box::default()));
    d.insert(
        Variant::from(vec![Variant::Nil, Variant::Float(0.25)]),
        Variant::Object(Object::Id(9)),
    );
    let mut td = Dictionary::typed(ElementType::ClassName("Node".into()), ElementType::Untyped);
    td.insert(Variant::Nil, Variant::Object(Object::Null));
    let object = Object::full(
        "Node",
        vec![("a".into(), Variant::Int(1)), ("b".into(), Variant::from(vec![Variant::Bool(true)]))],
    );
    let empty_object = Object::full("R", vec![]);
    let leaves = Variant::from(vec![
        Variant::Nil,
        Variant::Bool(false),
        Variant::Int(-7),
        Variant::Float(1.0 / 3.0),
        Variant::String("s".into()),
        Variant::Vector2(Vector2 { x: 1.0, y: 2.5 }),
        Variant::Color(Color { r: 0.5, g: 0.25, b: 1.0, a: 1.0 }),
        Variant::StringName("n".into()),
        Variant::from(NodePath { names: vec!["a".into()], subnames: vec![], absolute: true }),
        Variant::Rid(4),
        Variant::Callable,
        Variant::from(Signal { name: "sig".into(), object_id: 2 }),
        Variant::PackedByteArray(vec![1, 2]),
        Variant::PackedFloat32Array(vec![0.5]),
        Variant::PackedStringArray(vec!["x".into()]),
        Variant::Object(Object::Null),
        Variant::Object(Object::Id(3)),
    ]);
    let nested = Variant::from(vec![
        Variant::from(vec![Variant::from(vec![Variant::Int(1)])]),
        Variant::from(Array::new()),
    ]);
    vec![
        ("nil", Variant::Nil),
        ("empty array", Variant::from(Array::new())),
        ("empty dictionary", Variant::Dictionary(Box::default())),
        ("typed array", Variant::from(typed)),
        ("dictionary", Variant::from(d)),
        ("typed dictionary", Variant::from(td)),
        ("object", Variant::Object(object)),
        ("empty object", Variant::Object(empty_object)),
        ("leaves", leaves),
        ("nested", nested),
    ]
}

#[test]
fn debug_output_is_the_derived_format() {
    let golden = include_str!("golden/owned_debug.txt");
    let mut ours = String::new();
    for (name, v) in samples() {
        for (mode, text) in [
            ("plain", format!("{v:?}")),
            ("pretty", format!("{v:#?}")),
            ("precision", format!("{v:.2?}")),
            ("pretty precision", format!("{v:#.2?}")),
        ] {
            ours.push_str(&format!("=== {name} / {mode}\n{text}\n"));
        }
    }
    for (line, (a, b)) in ours.lines().zip(golden.lines()).enumerate() {
        assert_eq!(a, b, "line {}", line + 1);
    }
    assert_eq!(ours.lines().count(), golden.lines().count());
}
