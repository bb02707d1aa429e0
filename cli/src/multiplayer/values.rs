//! How the values a multiplayer message carries print: Godot's text on one line ([`text`]) and
//! JSON with each value's bytes ([`carried_json`]), for `gdvariant multiplayer` and the proxy's
//! `--log-calls`. Each is O(the value's bytes).

use gdvariant::{VariantRef, Version};
use gdvariant_multiplayer::PacketError;
use gdvariant_multiplayer::godot4;
use serde_json::{Value, json};

/// Godot's text of a value (its error's text if it has none), on one line ([`one_line`]). No
/// value prints as nothing: a Godot 3 RID, which `var2str` prints as nothing, prints `RID()`
/// ([`gdvariant::text::to_display_text_as`]).
pub(crate) fn text(value: VariantRef<'_>, version: Version) -> String {
    match gdvariant::text::to_display_text_as(value, version) {
        Ok(text) => one_line(&text),
        Err(error) => format!("<{error}>"),
    }
}

/// Godot's text on one line without tabs, read back by Godot's parser as the same value: the
/// line breaks Godot puts between dictionary entries and after objects become spaces (the one
/// that ends the text is left out), and inside string literals (where Godot writes a `String`'s
/// control characters as they are) a line feed, tab and carriage return become `\n`, `\t`, `\r`
/// and any other control character `\uXXXX`, escapes Godot's parser reads. O(length).
fn one_line(text: &str) -> String {
    let text = text.strip_suffix('\n').unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if !in_string {
            in_string = c == '"';
            out.push(if c == '\n' { ' ' } else { c });
            continue;
        }
        match c {
            _ if escaped => {
                escaped = false;
                out.push(c);
            }
            '\\' => {
                escaped = true;
                out.push(c);
            }
            '"' => {
                in_string = false;
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

/// Bytes as lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A value a message carries, as JSON: `{"value": ..., "hex": ...}`, the value as
/// [`json_value`] writes it and the bytes the packet carried it in, as hex (Godot 3: the value's
/// `var2bytes` bytes; Godot 4: its compressed form, see [`godot4::Carried::bytes`]).
pub(super) fn carried_json(value: VariantRef<'_>, bytes: &[u8], natural: bool) -> Value {
    json!({"value": json_value(value, natural), "hex": hex(bytes)})
}

/// A value as JSON: natural (objects, numbers) or lossless (every type tagged), kept as the
/// library writes it (see [`super::exact_json`]).
pub(super) fn json_value(value: VariantRef<'_>, natural: bool) -> Value {
    let written = if natural {
        gdvariant::json::to_natural_json(value)
    } else {
        gdvariant::json::to_json(value)
    };
    match written {
        Ok(text) => super::exact_json::verbatim(text),
        Err(error) => json!({ "error": error.to_string() }),
    }
}

/// Sets `key` of a JSON object.
pub(super) fn set(object: &mut Value, key: &str, value: Value) {
    if let Some(object) = object.as_object_mut() {
        object.insert(key.into(), value);
    }
}

/// Values as text, joined by `, `; each after its property's name when `names` are given.
pub(super) fn named(values: &[String], names: Option<&[&str]>) -> String {
    match names {
        Some(names) => values
            .iter()
            .zip(names)
            .map(|(value, name)| format!("{name} = {value}"))
            .collect::<Vec<_>>()
            .join(", "),
        None => values.join(", "),
    }
}

/// Godot 4 compressed values, each with the bytes it was carried in: an RPC's arguments, a
/// spawn's state, a sync element's values.
pub(super) trait CarriedValues<'a> {
    /// The next value, or the first error (then nothing more).
    fn next_carried(&mut self) -> Option<Result<godot4::Carried<'a>, PacketError>>;
}

impl<'a> CarriedValues<'a> for godot4::Arguments<'a> {
    fn next_carried(&mut self) -> Option<Result<godot4::Carried<'a>, PacketError>> {
        godot4::Arguments::next_carried(self)
    }
}

impl<'a> CarriedValues<'a> for godot4::Values<'a> {
    fn next_carried(&mut self) -> Option<Result<godot4::Carried<'a>, PacketError>> {
        godot4::Values::next_carried(self)
    }
}

/// Godot 4 compressed values as text and JSON ([`carried_json`]).
pub(super) fn values4<'a>(
    mut values: impl CarriedValues<'a>,
    natural: bool,
) -> Result<(Vec<String>, Vec<Value>), PacketError> {
    let mut texts = Vec::new();
    let mut jsons = Vec::new();
    while let Some(carried) = values.next_carried() {
        let carried = carried?;
        let value = carried.value.value();
        texts.push(text(value, Version::Godot4));
        jsons.push(carried_json(value, carried.bytes, natural));
    }
    Ok((texts, jsons))
}
