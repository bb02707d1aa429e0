//! The text Godot 4.6 gives a value (`Variant::stringify`, what `String(value)` and `str()`
//! print), for values converted into a `PackedStringArray`. Reals of math types are printed as
//! a single-precision build holds them.
//!
//! Iterative: containers nested as deep as Godot allows need no deep call stack. O(size of the
//! value plus the text). The text of an object (which holds its run-time instance id) cannot be
//! known here: [`GameDependent`].

use alloc::string::String;
use alloc::vec::Vec;
use core::slice;

use super::GameDependent;
use super::node_path_text::node_path_text;
use super::number_text::{itos, num, num_real, num_real_f32};
use crate::owned::{Dictionary, Object, Variant};
use crate::view::math::{Color, Vector2, Vector3, Vector4};
use crate::wire::exact_float::narrow_exact;
use crate::wire::work;

/// Godot's `MAX_RECURSION` for printing containers: deeper ones print as `[...]` / `{ ... }`.
const MAX_RECURSION: usize = 100;

/// A container being printed.
enum Frame<'a> {
    Elements { rest: slice::Iter<'a, Variant>, first: bool },
    Entries { rest: slice::Iter<'a, (Variant, Variant)>, first: bool, value: Option<&'a Variant> },
}

/// The text of `value`, as `String(value)` gives it.
pub(super) fn stringify(value: &Variant) -> Result<String, GameDependent> {
    let mut out = String::new();
    let mut frames: Vec<Frame<'_>> = Vec::new();
    put(value, false, &mut out, &mut frames)?;
    loop {
        let Some(top) = frames.last_mut() else {
            return Ok(out);
        };
        let next = match top {
            Frame::Elements { rest, first } => match rest.next() {
                Some(element) => {
                    if !core::mem::replace(first, false) {
                        out.push_str(", ");
                    }
                    Some(element)
                }
                None => {
                    out.push(']');
                    None
                }
            },
            Frame::Entries { rest, first, value } => {
                if let Some(value) = value.take() {
                    out.push_str(": ");
                    Some(value)
                } else if let Some((key, entry_value)) = rest.next() {
                    if !core::mem::replace(first, false) {
                        out.push_str(", ");
                    }
                    *value = Some(entry_value);
                    Some(key)
                } else {
                    out.push_str(" }");
                    None
                }
            }
        };
        match next {
            Some(inner) => put(inner, true, &mut out, &mut frames)?,
            None => {
                frames.pop();
            }
        }
    }
}

/// Prints `value` at the end of `out`, or opens it on `frames` when it is a container.
/// `nested`: inside a container, where strings are quoted (`stringify_variant_clean`).
fn put<'a>(
    value: &'a Variant,
    nested: bool,
    out: &mut String,
    frames: &mut Vec<Frame<'a>>,
) -> Result<(), GameDependent> {
    work::add(1);
    let depth = frames.len();
    match value {
        Variant::Array(array) => {
            if depth > MAX_RECURSION {
                out.push_str("[...]");
            } else {
                out.push('[');
                frames.push(Frame::Elements { rest: array.iter(), first: true });
            }
        }
        Variant::Dictionary(dictionary) => open_dictionary(dictionary, depth, out, frames),
        _ => leaf(value, nested, out)?,
    }
    Ok(())
}

/// Opens a dictionary (`{ key: value, ... }`; `{  }` when empty).
fn open_dictionary<'a>(
    dictionary: &'a Dictionary,
    depth: usize,
    out: &mut String,
    frames: &mut Vec<Frame<'a>>,
) {
    if depth > MAX_RECURSION {
        out.push_str("{ ... }");
    } else {
        out.push_str("{ ");
        frames.push(Frame::Entries { rest: dictionary.entries().iter(), first: true, value: None });
    }
}

/// Prints a value that holds no other `Variant`.
fn leaf(value: &Variant, nested: bool, out: &mut String) -> Result<(), GameDependent> {
    use Variant as V;
    match value {
        V::Nil => out.push_str("<null>"),
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(i) => itos(out, *i),
        V::Float(f) => num_real(out, *f, true),
        V::String(s) => string(&s.to_string_lossy(), nested.then_some(""), out),
        V::StringName(s) => string(&s.to_string_lossy(), nested.then_some("&"), out),
        V::NodePath(path) => string(&node_path_text(path), nested.then_some("^"), out),
        V::Vector2(v) => vector2(v.map(narrow_exact), out),
        V::Vector2i(v) => ints(&[v.x, v.y], out),
        V::Rect2(r) => {
            out.push_str("[P: ");
            vector2(r.position.map(narrow_exact), out);
            out.push_str(", S: ");
            vector2(r.size.map(narrow_exact), out);
            out.push(']');
        }
        V::Rect2i(r) => {
            out.push_str("[P: ");
            ints(&[r.position.x, r.position.y], out);
            out.push_str(", S: ");
            ints(&[r.size.x, r.size.y], out);
            out.push(']');
        }
        V::Vector3(v) => vector3(v.map(narrow_exact), out),
        V::Vector3i(v) => ints(&[v.x, v.y, v.z], out),
        V::Transform2D(t) => {
            let t = t.map(narrow_exact);
            labelled(&[("[X: ", t.x), (", Y: ", t.y), (", O: ", t.origin)], vector2, out);
        }
        V::Vector4(v) => vector4(v.map(narrow_exact), out),
        V::Vector4i(v) => ints(&[v.x, v.y, v.z, v.w], out),
        V::Plane(p) => {
            let p = p.map(narrow_exact);
            out.push_str("[N: ");
            vector3(p.normal, out);
            out.push_str(", D: ");
            num_real_f32(out, p.d, false);
            out.push(']');
        }
        V::Quaternion(q) => {
            let q = q.map(narrow_exact);
            reals(&[q.x, q.y, q.z, q.w], false, out);
        }
        V::Aabb(b) => {
            let b = b.map(narrow_exact);
            labelled(&[("[P: ", b.position), (", S: ", b.size)], vector3, out);
        }
        V::Basis(b) => {
            let b = b.map(narrow_exact);
            labelled(&columns(&b.rows), vector3, out);
        }
        V::Transform3D(t) => {
            let t = t.map(narrow_exact);
            let [x, y, z] = columns(&t.basis.rows);
            labelled(&[x, y, z, (", O: ", t.origin)], vector3, out);
        }
        V::Projection(p) => {
            let [x, y, z, w] = p.map(narrow_exact).columns;
            labelled(&[("[X: ", x), (", Y: ", y), (", Z: ", z), (", W: ", w)], vector4, out);
        }
        V::Color(c) => color(*c, out),
        V::Rid(id) => {
            out.push_str("RID(");
            itos(out, *id as i64);
            out.push(')');
        }
        V::Object(Object::Null) => out.push_str("<Object#null>"),
        // `<Class#instance id>`: the id is given out by the running game.
        V::Object(_) => return Err(GameDependent),
        V::Callable => out.push_str("null::null"),
        // The signal's object does not exist in the game that decodes it.
        V::Signal(signal) => {
            out.push_str("null::[signal]");
            out.push_str(&signal.name);
        }
        V::PackedByteArray(x) => list(x.iter(), |b, out| itos(out, i64::from(*b)), out),
        V::PackedInt32Array(x) => list(x.iter(), |i, out| itos(out, i64::from(*i)), out),
        V::PackedInt64Array(x) => list(x.iter(), |i, out| itos(out, *i), out),
        // Each element becomes a `float` Variant: an f32 is printed as the f64 it widens to.
        V::PackedFloat32Array(x) => {
            list(x.iter(), |f, out| num_real(out, f64::from(*f), true), out);
        }
        V::PackedFloat64Array(x) => list(x.iter(), |f, out| num_real(out, *f, true), out),
        V::PackedStringArray(x) => {
            list(x.iter(), |s, out| string(&s.to_string_lossy(), Some(""), out), out)
        }
        V::PackedVector2Array(x) => list(x.iter(), |v, out| vector2(v.map(narrow_exact), out), out),
        V::PackedVector3Array(x) => list(x.iter(), |v, out| vector3(v.map(narrow_exact), out), out),
        V::PackedVector4Array(x) => list(x.iter(), |v, out| vector4(v.map(narrow_exact), out), out),
        V::PackedColorArray(x) => list(x.iter(), |c, out| color(*c, out), out),
        // Containers are opened by `put`.
        V::Array(_) | V::Dictionary(_) => {}
    }
    Ok(())
}

/// A string: bare at the top, else escaped (`String::c_escape`) in double quotes after the
/// type's sigil (`&` for a StringName, `^` for a NodePath).
fn string(text: &str, nested: Option<&str>, out: &mut String) {
    work::add(text.len() / 64);
    let Some(sigil) = nested else {
        out.push_str(text);
        return;
    };
    out.push_str(sigil);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\'' => out.push_str("\\'"),
            '"' => out.push_str("\\\""),
            other => out.push(other),
        }
    }
    out.push('"');
}

/// `[a, b, ...]`, each item printed by `item`.
fn list<T>(items: impl Iterator<Item = T>, mut item: impl FnMut(T, &mut String), out: &mut String) {
    out.push('[');
    for (i, x) in items.enumerate() {
        work::add(1);
        if i > 0 {
            out.push_str(", ");
        }
        item(x, out);
    }
    out.push(']');
}

/// Labelled parts (`[X: ..., Y: ...]`): each label, then its part; a closing `]`.
fn labelled<T: Copy>(parts: &[(&str, T)], part: fn(T, &mut String), out: &mut String) {
    for (label, value) in parts {
        out.push_str(label);
        part(*value, out);
    }
    out.push(']');
}

/// The columns of a basis (`get_column`), labelled `X`, `Y`, `Z`.
fn columns(rows: &[Vector3<f32>; 3]) -> [(&'static str, Vector3<f32>); 3] {
    let [r0, r1, r2] = rows;
    [
        ("[X: ", Vector3 { x: r0.x, y: r1.x, z: r2.x }),
        (", Y: ", Vector3 { x: r0.y, y: r1.y, z: r2.y }),
        (", Z: ", Vector3 { x: r0.z, y: r1.z, z: r2.z }),
    ]
}

/// `(a, b, ...)` of reals, as `String::num_real(float, trailing)` prints them.
fn reals(values: &[f32], trailing: bool, out: &mut String) {
    out.push('(');
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        num_real_f32(out, *value, trailing);
    }
    out.push(')');
}

/// `(a, b, ...)` of integers.
fn ints(values: &[i32], out: &mut String) {
    out.push('(');
    for (i, value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        itos(out, i64::from(*value));
    }
    out.push(')');
}

fn vector2(v: Vector2<f32>, out: &mut String) {
    reals(&[v.x, v.y], true, out);
}

fn vector3(v: Vector3<f32>, out: &mut String) {
    reals(&[v.x, v.y, v.z], true, out);
}

fn vector4(v: Vector4<f32>, out: &mut String) {
    reals(&[v.x, v.y, v.z, v.w], true, out);
}

/// `(r, g, b, a)`, each with `String::num(x, 4)`.
fn color(c: Color<f32>, out: &mut String) {
    out.push('(');
    for (i, value) in [c.r, c.g, c.b, c.a].into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        num(out, f64::from(value), 4);
    }
    out.push(')');
}
