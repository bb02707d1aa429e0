//! `work_bound`: no public path does more than a bounded amount of work per input byte.
//!
//! Every path that reads untrusted bytes is run on the input under both versions, objects
//! refused and allowed (and Godot 4's game view of typed containers), and its units of work (`gdvariant::work::measure`: bounds-checked reads,
//! key comparison and hashing steps, sort comparisons, resynchronisation steps) must stay within
//! [`UNITS_PER_BYTE`] per input byte, plus a constant. A path that re-walks nested containers,
//! compares keys super-linearly or rescans for every candidate offset goes past the bound on
//! some input of a few kilobytes, and libFuzzer's search finds it: the check is the work, not a
//! clock, so a finding reproduces on every machine.

use gdvariant::{Options, Version};

use super::options;

/// Units of work allowed per input byte, for every path. Reading a byte costs at most one unit
/// (a read of 4 bytes costs one); the rest is headroom for sorting (O(n log n) comparisons) and
/// hashing, far below the factor of the depth (up to 1024) that a re-walk costs.
pub const UNITS_PER_BYTE: u64 = 48;

/// Units allowed for any input, however short.
pub const UNITS_BASE: u64 = 4096;

/// Panics when `units` exceeds the bound for `data`.
fn within(data: &[u8], what: &str, options: Options, units: u64) {
    let bound = UNITS_PER_BYTE * data.len() as u64 + UNITS_BASE;
    assert!(
        units <= bound,
        "{what} ({options:?}) did {units} units of work on {} bytes (bound {bound})",
        data.len()
    );
}

/// Runs `op` and checks its work.
fn bounded<R>(data: &[u8], what: &str, options: Options, op: impl FnOnce() -> R) -> R {
    let (result, units) = gdvariant::work::measure(op);
    within(data, what, options, units);
    result
}

/// The target.
pub fn check(data: &[u8]) {
    for options in options::all() {
        bounded(data, "validate", options, || gdvariant::validate(data, options).is_ok());
        bounded(data, "cursor", options, || gdvariant::view::Cursor::new(data, options).count());
        bounded(data, "tape", options, || {
            gdvariant::view::Tape::new(data, options).map_or(0, |t| t.len())
        });
        let Ok(value) = gdvariant::parse(data, options) else { continue };
        bounded(data, "json", options, || gdvariant::json::to_json(value).is_ok());
        for version in [Version::Godot3, Version::Godot4] {
            bounded(data, "text", options, || gdvariant::text::to_text_as(value, version).is_ok());
        }
        bounded(data, "serialize (serde)", options, || {
            let mut json = serde_json::Serializer::new(std::io::sink());
            serde::Serialize::serialize(&value, &mut json).is_ok()
        });
        bounded(data, "from_bytes into a Variant (serde)", options, || {
            gdvariant::serde::from_bytes::<gdvariant::Variant>(data, options).is_ok()
        });
        bounded(data, "from_bytes into a tree of your own (serde)", options, || {
            gdvariant::serde::from_bytes::<Tree>(data, options).is_ok()
        });
        bounded(data, "lookup", options, || {
            let keys = [gdvariant::Key::from("type"), gdvariant::Key::from(0)];
            value.lookup(&keys).is_ok()
        });
        let decoded = bounded(data, "decode", options, || gdvariant::decode(data, options));
        if let Ok(decoded) = decoded {
            let version = options.version();
            let encode_options = gdvariant::EncodeOptions::new(version);
            bounded(data, "encode", options, || {
                gdvariant::encode(&decoded, encode_options).is_ok()
            });
            bounded(data, "clone and compare", options, || decoded.clone() == decoded);
        }
    }
    // Typed containers as the game sees them (Godot 4 only has them).
    for allow_objects in [false, true] {
        let options = Options::godot4().with_allow_objects(allow_objects).with_game_view(true);
        bounded(data, "decode (game view)", options, || gdvariant::decode(data, options).is_ok());
        bounded(data, "from_bytes into a Variant (serde, game view)", options, || {
            gdvariant::serde::from_bytes::<gdvariant::Variant>(data, options).is_ok()
        });
        bounded(data, "from_bytes into a tree of your own (serde, game view)", options, || {
            gdvariant::serde::from_bytes::<Tree>(data, options).is_ok()
        });
        let Ok(value) = gdvariant::parse(data, options) else { continue };
        bounded(data, "game_elements / game_entries", options, || match value {
            gdvariant::VariantRef::Array(array) => array.game_elements().map_or(0, |e| e.count()),
            gdvariant::VariantRef::Dictionary(d) => d.game_entries().map_or(0, |e| e.count()),
            _ => 0,
        });
    }
    for version in [Version::Godot3, Version::Godot4] {
        let options = Options::new(version);
        for prefix in [
            gdvariant::framing::LengthPrefix::store_var(false),
            gdvariant::framing::LengthPrefix::store_var(true),
        ] {
            bounded(data, "scan", options, || {
                gdvariant::framing::scan(data, prefix, options).count()
            });
        }
    }
    bounded(data, "detect", Options::godot4(), || gdvariant::detect(data));
}

/// Any value, as a recursive type of a user's own reads it through serde's data model (built
/// for the work of building it; nothing reads it).
#[allow(dead_code)]
enum Tree {
    Leaf,
    List(Vec<Tree>),
    Map(Vec<(Tree, Tree)>),
}

impl<'de> serde::Deserialize<'de> for Tree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TreeVisitor)
    }
}

struct TreeVisitor;

impl<'de> serde::de::Visitor<'de> for TreeVisitor {
    type Value = Tree;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_str<E>(self, _: &str) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_unit<E>(self) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_none<E>(self) -> Result<Tree, E> {
        Ok(Tree::Leaf)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<Tree, D::Error> {
        serde::Deserialize::deserialize(d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Tree, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Tree::List(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Tree, A::Error> {
        let mut entries = Vec::new();
        while let Some(entry) = map.next_entry()? {
            entries.push(entry);
        }
        Ok(Tree::Map(entries))
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Tree, A::Error> {
        use serde::de::VariantAccess;
        let (tag, variant): (Tree, _) = data.variant()?;
        Ok(Tree::Map(vec![(tag, variant.newtype_variant()?)]))
    }
}
