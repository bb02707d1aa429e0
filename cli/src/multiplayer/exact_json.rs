//! Values inside a message's JSON, written exactly as the library writes them.
//!
//! A message is built as a `serde_json::Value` (its command and fields), but a Variant inside it
//! must not go through `serde_json`'s parser: that would round floats unless a build feature is
//! on, and turn a value nested deeper than its recursion limit into an error. So a value is held
//! as [`verbatim`]: a one-entry object under a key no decoded name can produce (object keys of a
//! message are the command's own field names), and [`to_line`] writes its text unchanged.
//! Cost: O(bytes of the line); the walk over the message recurses only on the message's own
//! fixed structure (at most eight levels), never on a value's nesting.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The key of the object that stands for a value's JSON text.
const VERBATIM: &str = "\u{0}gdvariant-json";

/// A value's JSON text (from `gdvariant::json`), to be written unchanged by [`to_line`].
pub fn verbatim(text: String) -> Value {
    let mut object = Map::new();
    object.insert(VERBATIM.to_owned(), Value::String(text));
    Value::Object(object)
}

/// `value` as one line of JSON, with every [`verbatim`] text written as it is.
pub fn to_line(value: &Value) -> String {
    // Writing to a `Vec` fails only if a verbatim text is not JSON, which the library never
    // writes; the line then says so instead of going missing.
    serde_json::to_string(&Exact(value))
        .unwrap_or_else(|e| format!(r#"{{"error":"cannot write the message as JSON: {e}"}}"#))
}

/// A `Value` whose [`verbatim`] texts are written unchanged.
struct Exact<'a>(&'a Value);

impl Serialize for Exact<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(object) => {
                if let (1, Some(Value::String(text))) = (object.len(), object.get(VERBATIM)) {
                    let raw: &RawValue =
                        serde_json::from_str(text).map_err(serde::ser::Error::custom)?;
                    return raw.serialize(serializer);
                }
                let mut map = serializer.serialize_map(Some(object.len()))?;
                for (key, value) in object {
                    map.serialize_entry(key, &Exact(value))?;
                }
                map.end()
            }
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&Exact(item))?;
                }
                seq.end()
            }
            other => other.serialize(serializer),
        }
    }
}
