//! The crate's side of the engine campaign (`corpus/probes/campaign/`): reads lines
//! `VERSION HEX` (3 or 4, a value's bytes) on standard input and writes one JSON line per input
//! with what the crate makes of it, in the fields the engine probes record:
//! `{"size": entries of the decoded dictionary, "text": the text (var2str / var_to_str),
//! "reencoded_hex": the decoded value encoded again}`, or `{"error": "..."}`.
//!
//! ```sh
//! cargo build --example identity_batch
//! echo "4 1b000000..." | target/debug/examples/identity_batch
//! ```

#![allow(clippy::expect_used)]

use std::io::{BufRead, Write};

use gdvariant::{EncodeOptions, Options, Variant, Version};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line?;
        let Some((version, hex)) = line.trim().split_once(' ') else { continue };
        let version = if version == "3" { Version::Godot3 } else { Version::Godot4 };
        let record = match hex::decode(hex) {
            Ok(bytes) => one(&bytes, version),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        };
        writeln!(out, "{record}")?;
    }
    out.flush()
}

/// What the crate makes of one input.
fn one(bytes: &[u8], version: Version) -> serde_json::Value {
    let options = Options::new(version);
    let value = match gdvariant::decode(bytes, options) {
        Ok(value) => value,
        Err(e) => return serde_json::json!({ "error": e.to_string() }),
    };
    let mut record = serde_json::Map::new();
    if let Variant::Dictionary(d) = &value {
        record.insert("size".into(), d.len().into());
    }
    let parsed = gdvariant::parse(bytes, options).expect("decoded, so it parses");
    match gdvariant::text::to_text_as(parsed, version) {
        Ok(text) => record.insert("text".into(), text.into()),
        Err(e) => record.insert("text_error".into(), e.to_string().into()),
    };
    match value.encode(EncodeOptions::new(version)) {
        Ok(encoded) => record.insert("reencoded_hex".into(), hex::encode(encoded).into()),
        Err(e) => record.insert("encode_error".into(), e.to_string().into()),
    };
    serde_json::Value::Object(record)
}
