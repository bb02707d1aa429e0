//! The crate's side of the engine campaign (`corpus/probes/campaign/`): reads lines
//! `VERSION HEX` (3 or 4, a value's bytes) on standard input and writes one JSON line per input
//! with what the crate makes of it, in the fields the engine probes record:
//! `{"size": entries of the decoded dictionary, "text": the text (var2str / var_to_str),
//! "reencoded_hex": the decoded value encoded again}`, or `{"error": "..."}`. Each input is
//! decoded into the value the input before it made (`decode_into`, as a server's receive loop
//! does), and must give what a fresh `decode` gives (else the program stops).
//!
//! ```sh
//! cargo build --example identity_batch
//! echo "4 1b000000..." | target/debug/examples/identity_batch
//! ```

#![allow(clippy::expect_used, clippy::panic)]

use std::io::{BufRead, Write};

use gdvariant::{EncodeOptions, Options, Variant, Version};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut kept = Variant::Nil;
    for line in stdin.lock().lines() {
        let line = line?;
        let Some((version, hex)) = line.trim().split_once(' ') else { continue };
        let version = if version == "3" { Version::Godot3 } else { Version::Godot4 };
        let record = match hex::decode(hex) {
            Ok(bytes) => one(&bytes, version, &mut kept),
            Err(e) => serde_json::json!({ "error": e.to_string() }),
        };
        writeln!(out, "{record}")?;
    }
    out.flush()
}

/// What the crate makes of one input, decoded into `kept` (the value the input before made).
fn one(bytes: &[u8], version: Version, kept: &mut Variant) -> serde_json::Value {
    let options = Options::new(version);
    let fresh = gdvariant::decode(bytes, options);
    let reused = gdvariant::decode_into(bytes, options, kept);
    match (&fresh, reused) {
        (Ok(fresh), Ok(())) => assert!(kept.same(fresh), "decode_into: {kept:?} against {fresh:?}"),
        (Err(fresh), Err(reused)) => assert_eq!(*fresh, reused, "decode_into's error"),
        (fresh, reused) => panic!("decode_into: {reused:?} against {fresh:?}"),
    }
    let value = match fresh {
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
