//! The real-engine corpora: their files, manifests and expected values, options for a case, and
//! the sample Miri runs.

use super::*;

/// `corpus/godot3` or `corpus/godot4`.
pub fn corpus_dir(version: Version) -> PathBuf {
    let name = match version {
        Version::Godot3 => "godot3",
        Version::Godot4 => "godot4",
    };
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(name)
}

/// The `.bin` files of `corpus/godot{3,4}` of at most `max_len` bytes, sorted by name.
pub fn corpus_files(version: Version, max_len: u64) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir(version))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .filter(|p| std::fs::metadata(p).unwrap().len() <= max_len)
        .collect();
    files.sort();
    files
}

/// The bytes of corpus case `name` (`corpus/godot{3,4}/NAME.bin`).
pub fn corpus(version: Version, name: &str) -> Vec<u8> {
    let path = corpus_dir(version).join(format!("{name}.bin"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// 0 for Godot 3, 1 for Godot 4 (for per-version tables).
fn version_index(version: Version) -> usize {
    match version {
        Version::Godot3 => 0,
        Version::Godot4 => 1,
    }
}

/// The manifest entry of corpus case `name`. Only that entry's line is parsed (parsing the
/// whole manifest takes half a minute under Miri).
pub fn manifest_case(version: Version, name: &str) -> Value {
    static LINES: [std::sync::OnceLock<std::collections::HashMap<String, String>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let lines = LINES[version_index(version)].get_or_init(|| {
        let path = corpus_dir(version).join("manifest.jsonl");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name_of = |line: &str| -> String {
            // Every entry starts with its name; anything else is parsed.
            let quick = line.strip_prefix("{\"name\":").map(str::trim_start);
            match quick.and_then(|rest| rest.strip_prefix('"')?.split_once('"')) {
                Some((name, _)) if !name.contains('\\') => name.to_owned(),
                _ => parse_json(line)["name"].as_str().unwrap_or_default().to_owned(),
            }
        };
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| (name_of(line), line.to_owned()))
            .collect()
    });
    let case = parse_json(lines.get(name).unwrap_or_else(|| panic!("{name} not in the manifest")));
    assert_eq!(case["name"], name);
    case
}

/// Parses a JSON Lines file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(parse_json).collect()
}

/// Parses JSON with no recursion limit (the corpus nests 1000 deep).
pub fn parse_json(text: &str) -> Value {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    serde::Deserialize::deserialize(&mut deserializer).expect("valid JSON")
}

/// The manifest entries of a corpus.
pub fn manifest(version: Version) -> Vec<Value> {
    manifest_cached(version).to_vec()
}

/// The manifest entries of a corpus, read and parsed once per test binary.
fn manifest_cached(version: Version) -> &'static [Value] {
    static MANIFESTS: [std::sync::OnceLock<Vec<Value>>; 2] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    MANIFESTS[version_index(version)]
        .get_or_init(|| read_jsonl(&corpus_dir(version).join("manifest.jsonl")))
}

/// Whether a corpus case is left out under Miri: the `large_*` cases (hundreds of kilobytes to
/// a megabyte each) take minutes apiece to interpret; every other case runs. Always `false`
/// outside Miri.
pub fn miri_skips(name: &str) -> bool {
    cfg!(miri) && name.starts_with("large_")
}

/// Under Miri, a sample of the corpus for tests that compare each case with Godot's JSON
/// description (over a second a case when interpreted): the first case of each type of each
/// version, `large_*` cases left out. Outside Miri every case is kept.
#[derive(Default)]
pub struct MiriSample {
    seen: std::collections::HashSet<(usize, String)>,
}

impl MiriSample {
    /// Whether to leave `case` (a manifest entry of `version`) out.
    pub fn skips(&mut self, version: Version, case: &Value) -> bool {
        if !cfg!(miri) {
            return false;
        }
        let name = case["name"].as_str().unwrap_or_default();
        let ty = case["type"].as_str().unwrap_or_default().to_owned();
        miri_skips(name) || !self.seen.insert((version_index(version), ty))
    }
}

/// A case's expected value: inline, or from its `expected_file` (stored gzipped when large).
pub fn expected_value(version: Version, case: &Value) -> Value {
    if let Some(expected) = case.get("expected") {
        return expected.clone();
    }
    let file = case["expected_file"].as_str().expect("expected or expected_file");
    let dir = corpus_dir(version);
    let plain = dir.join(file);
    if plain.exists() {
        return parse_json(&std::fs::read_to_string(plain).unwrap());
    }
    let gz = dir.join(format!("{file}.gz"));
    let mut text = String::new();
    let file = std::fs::File::open(&gz).unwrap_or_else(|e| panic!("{}: {e}", gz.display()));
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text).unwrap();
    parse_json(&text)
}

/// Runs `f` on a thread with a large stack (deeply nested cases recurse in these helpers).
pub fn with_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(512 << 20).spawn(f).unwrap().join().unwrap()
}

/// Options for a case with its `allow_objects` / `full_objects` flag.
pub fn options_for(version: Version, allow_objects: bool) -> Options {
    Options::new(version).with_allow_objects(allow_objects)
}

/// Decodes a hex string.
pub fn unhex(text: &str) -> Vec<u8> {
    hex::decode(text).expect("hex")
}
