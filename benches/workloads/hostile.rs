//! Worst-case inputs, one per class of work a hostile sender could try to multiply: each is a
//! value Godot accepts, of about 1 MiB, paired with the public operation it targets. The
//! `hostile` bench times each operation beside `validate` on the same bytes; the work-counted
//! tests (`tests/*_bounds.rs`) prove the same classes linear without a clock.

use gdvariant::framing::LengthPrefix;
use gdvariant::{EncodeOptions, Options, Version, Writer};

/// One worst case: its name, its bytes, how to read them, and the operation it targets.
pub struct Hostile {
    /// What the input is built to stress.
    pub name: &'static str,
    /// The input.
    pub bytes: Vec<u8>,
    /// The reader settings.
    pub options: Options,
    /// The operation under test, run on the bytes.
    pub run: fn(&[u8], Options),
    /// What the operation is timed beside: `validate` on the same bytes, or for a damaged dump,
    /// the same scan of an undamaged dump of the same size.
    pub baseline: Baseline,
}

/// The reference an operation's time is compared with.
pub struct Baseline {
    /// Its name in the benchmark's output.
    pub name: &'static str,
    /// Its input: `None` for the worst case's own bytes.
    pub bytes: Option<Vec<u8>>,
    /// The reference operation.
    pub run: fn(&[u8], Options),
}

impl Baseline {
    /// `validate` on the same bytes.
    fn validate() -> Self {
        Baseline {
            name: "validate",
            bytes: None,
            run: |bytes, options| {
                gdvariant::validate(bytes, options).expect("Godot accepts every worst case");
            },
        }
    }
}

/// Every frame of a `store_var` dump, found and checked by `framing::scan`.
fn scan_dump(bytes: &[u8], options: Options) {
    let prefix = LengthPrefix::store_var(false);
    gdvariant::framing::scan(bytes, prefix, options).count();
}

/// Every worst case, at about `size` bytes each.
pub fn cases(size: usize) -> Vec<Hostile> {
    let g4 = Options::godot4();
    #[allow(unused_mut)]
    let mut cases = vec![
        Hostile {
            name: "cursor/deep_around_wide",
            bytes: deep_around_wide(1000, size / 12),
            options: g4,
            run: |bytes, options| {
                for event in gdvariant::view::Cursor::new(bytes, options) {
                    event.expect("valid input");
                }
            },
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "json/deep_around_wide",
            bytes: deep_around_wide(1000, size / 12),
            options: g4,
            run: |bytes, options| {
                let value = gdvariant::parse(bytes, options).expect("valid input");
                gdvariant::json::to_json(value).expect("valid input");
            },
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "text/deep_around_wide",
            bytes: deep_around_wide(1000, size / 12),
            options: g4,
            run: print_text,
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "text/keys_nested_17_deep",
            bytes: dictionary(size / 160, |w, i| nested(w, 17, i)),
            options: g4,
            run: print_text,
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "text/wide_keys_inside_keys",
            bytes: wide_keys_inside_keys(500, size / 4000),
            options: g4,
            run: print_text,
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "text/packed_keys",
            bytes: dictionary(size / 24, |w, i| {
                w.packed_int32(&[i as i32, 0]).expect("in memory");
            }),
            options: g4,
            run: print_text,
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "decode/dictionary_keys_equal_but_deep_inside",
            bytes: dictionary(size / 120, |w, i| {
                for _ in 0..8 {
                    w.begin_dictionary(1).expect("in memory");
                    w.string("k").expect("in memory");
                }
                w.int(i as i64).expect("in memory");
            }),
            options: g4,
            run: |bytes, options| {
                gdvariant::decode(bytes, options).expect("valid input");
            },
            baseline: Baseline::validate(),
        },
        Hostile {
            name: "scan/resync_over_frame_starts",
            bytes: resync_dump(size),
            options: g4,
            run: scan_dump,
            baseline: Baseline {
                name: "scan_undamaged",
                bytes: Some(undamaged_dump(size)),
                run: scan_dump,
            },
        },
    ];
    #[cfg(feature = "serde")]
    cases.push(Hostile {
        name: "serde_json/deep_around_wide",
        bytes: deep_around_wide(1000, size / 12),
        options: g4,
        run: |bytes, options| {
            let value = gdvariant::parse(bytes, options).expect("valid input");
            serde_json::to_vec(&value).expect("valid input");
        },
        baseline: Baseline::validate(),
    });
    cases
}

/// Godot 4's text of the value.
fn print_text(bytes: &[u8], options: Options) {
    let value = gdvariant::parse(bytes, options).expect("valid input");
    gdvariant::text::to_text_as(value, Version::Godot4).expect("valid input");
}

fn writer() -> Writer<Vec<u8>> {
    Writer::new(Vec::new(), EncodeOptions::godot4())
}

/// `depth` arrays of one element around an array of `width` ints, then `depth` dictionaries
/// of one entry around an array of `width` strings: what re-walking nested containers once
/// per level turns into O(bytes x depth).
pub fn deep_around_wide(depth: usize, width: usize) -> Vec<u8> {
    let mut w = writer();
    w.begin_array(2).expect("in memory");
    for _ in 0..depth {
        w.begin_array(1).expect("in memory");
    }
    w.begin_array(width).expect("in memory");
    for i in 0..width {
        w.int(i as i64).expect("in memory");
    }
    for _ in 0..depth {
        w.begin_dictionary(1).expect("in memory");
        w.string("k").expect("in memory");
    }
    w.begin_array(width).expect("in memory");
    for i in 0..width {
        w.string(if i % 2 == 0 { "even" } else { "odd" }).expect("in memory");
    }
    w.finish().expect("complete")
}

/// `depth` dictionaries nested as keys, each key also holding an array nested as a key and a
/// wide array: `{[{[...]: 1, "w": [0, 1, ...]}]: 1}`, so that every level's key reaches into
/// every level below.
pub fn wide_keys_inside_keys(depth: usize, width: usize) -> Vec<u8> {
    let mut w = writer();
    for _ in 0..depth {
        w.begin_dictionary(2).expect("in memory");
        w.begin_array(1).expect("in memory");
    }
    w.begin_array(0).expect("in memory");
    for level in 0..depth {
        w.int(1).expect("in memory");
        w.string("w").expect("in memory");
        w.begin_array(width).expect("in memory");
        for i in 0..width {
            w.int((i + level) as i64).expect("in memory");
        }
    }
    w.finish().expect("complete")
}

/// A dictionary of `count` entries whose key `i` is written by `key(writer, i)`.
pub fn dictionary(count: usize, key: impl Fn(&mut Writer<Vec<u8>>, usize)) -> Vec<u8> {
    let mut w = writer();
    w.begin_dictionary(count).expect("in memory");
    for i in 0..count {
        key(&mut w, i);
        w.int(i as i64).expect("in memory");
    }
    w.finish().expect("complete")
}

/// `depth` arrays, one inside the other, around the int `i`.
pub fn nested(w: &mut Writer<Vec<u8>>, depth: usize, i: usize) {
    for _ in 0..depth {
        w.begin_array(1).expect("in memory");
    }
    w.int(i as i64).expect("in memory");
}

/// A `store_var` dump whose first prefix is bad, followed by `size` bytes in which every
/// 16-byte step starts something that looks like a frame reaching to the end of the dump:
/// `[length to the end, Array header, count 2, int header]`, whose value nests arrays until the
/// depth limit refuses it, 16 KiB into its payload.
pub fn resync_dump(size: usize) -> Vec<u8> {
    let words = size / 4;
    let mut dump = u32::MAX.to_le_bytes().to_vec();
    for i in 0..words {
        let word = match i % 4 {
            0 => ((words - i) * 4 - 4) as u32,
            1 => 28,
            2 => 2,
            _ => 2,
        };
        dump.extend_from_slice(&word.to_le_bytes());
    }
    dump
}

/// A `store_var` dump of about `size` bytes of good frames, each an Array holding one int.
pub fn undamaged_dump(size: usize) -> Vec<u8> {
    let mut dump = Vec::with_capacity(size);
    let mut i = 0u32;
    while dump.len() < size {
        for word in [16, 28, 1, 2, i] {
            dump.extend_from_slice(&word.to_le_bytes());
        }
        i = i.wrapping_add(1);
    }
    dump
}
