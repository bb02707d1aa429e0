//! Prints the value stored in a Godot Variant file.
//!
//! ```sh
//! cargo run --release --example inspect -- corpus/godot4/dict_simple.bin
//! cargo run --release --example inspect -- --godot 3 corpus/godot3/dict_simple.bin
//! ```
//!
//! Options: `--godot 3|4` (default 4), `--allow-objects`, `--offset N` (start of the value).

// Indentation arithmetic on small numbers; the input-facing rules apply to the library.
#![allow(clippy::arithmetic_side_effects)]

use std::process::ExitCode;

use gdvariant::{ObjectRef, Options, VariantRef, Version};

fn main() -> ExitCode {
    let mut version = Version::Godot4;
    let mut allow_objects = false;
    let mut offset = 0usize;
    let mut path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--godot" => match args.next().as_deref() {
                Some("3") => version = Version::Godot3,
                Some("4") => version = Version::Godot4,
                _ => return usage(),
            },
            "--allow-objects" => allow_objects = true,
            "--offset" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => offset = n,
                None => return usage(),
            },
            _ if path.is_none() => path = Some(arg),
            _ => return usage(),
        }
    }
    let Some(path) = path else { return usage() };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(bytes) = bytes.get(offset..) else {
        eprintln!("{path}: offset {offset} is past the end ({} bytes)", bytes.len());
        return ExitCode::from(2);
    };
    let options = Options::new(version).with_allow_objects(allow_objects);
    if let Err(e) = gdvariant::validate(bytes, options) {
        eprintln!("{path}: {e}");
        return ExitCode::from(1);
    }
    match gdvariant::parse(bytes, options) {
        Ok(value) => {
            let mut out = String::new();
            print_value(&mut out, value, 0);
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(1)
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: inspect [--godot 3|4] [--allow-objects] [--offset N] FILE");
    ExitCode::from(2)
}

/// Writes `value` as indented text. The input was validated, so errors cannot occur; they are
/// printed in place if they do.
fn print_value(out: &mut String, value: VariantRef<'_>, indent: usize) {
    use std::fmt::Write;
    let pad = "  ".repeat(indent + 1);
    match value {
        VariantRef::Dictionary(dict) => {
            out.push_str("{\n");
            for entry in dict.iter() {
                match entry {
                    Ok((key, value)) => {
                        out.push_str(&pad);
                        print_value(out, key, indent + 1);
                        out.push_str(": ");
                        print_value(out, value, indent + 1);
                        out.push_str(",\n");
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{pad}<error: {e}>");
                    }
                }
            }
            let _ = write!(out, "{}}}", "  ".repeat(indent));
        }
        VariantRef::Array(array) => {
            out.push_str("[\n");
            for item in array.iter() {
                out.push_str(&pad);
                match item {
                    Ok(item) => print_value(out, item, indent + 1),
                    Err(e) => {
                        let _ = write!(out, "<error: {e}>");
                    }
                }
                out.push_str(",\n");
            }
            let _ = write!(out, "{}]", "  ".repeat(indent));
        }
        VariantRef::Object(ObjectRef::Full(object)) => {
            let _ = writeln!(out, "{:?} {{", object.class_name());
            for property in object.properties() {
                match property {
                    Ok((name, value)) => {
                        let _ = write!(out, "{pad}{name:?}: ");
                        print_value(out, value.value(), indent + 1);
                        out.push_str(",\n");
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{pad}<error: {e}>");
                    }
                }
            }
            let _ = write!(out, "{}}}", "  ".repeat(indent));
        }
        other => {
            let _ = write!(out, "{other:?}");
        }
    }
}
