//! Key order and merging compared with the [`reference`](super::reference) on generated
//! dictionaries.

use super::*;

/// splitmix64: a tiny deterministic generator.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// A small key with many ties and repeats: nil, null objects, bools, ints, floats with NaN and
/// -0.0, strings and (Godot 4) string names, vectors with NaN, colors, packed arrays of ints and
/// of floats (with NaN and -0.0), arrays nested `budget` levels, dictionaries, and when `deep`,
/// arrays nested 14 to 18 levels.
fn random_key(
    w: &mut Writer<Vec<u8>>,
    rng: &mut SplitMix,
    version: Version,
    budget: usize,
    deep: bool,
) {
    let floats = [0.0, -0.0, f32::NAN, 1.0, 2.0];
    let kinds = match (budget, deep) {
        (0, _) => 11,
        (_, false) => 13,
        (_, true) => 14,
    };
    match rng.below(kinds) {
        0 => w.nil().unwrap(),
        1 => w.bool(rng.below(2) == 0).unwrap(),
        2 => w.int(rng.below(3) as i64).unwrap(),
        3 => w.float(f64::from(rng.pick(&floats))).unwrap(),
        4 => w.string(rng.pick(&["", "a", "b"])).unwrap(),
        5 if version == G4 => w.string_name(rng.pick(&["a", "b"])).unwrap(),
        5 => w.string("a").unwrap(),
        6 => w.vector2(Vector2 { x: rng.pick(&floats), y: rng.pick(&floats) }).unwrap(),
        7 => w.color(Color { r: rng.pick(&floats), g: 0.0, b: 0.0, a: 1.0 }).unwrap(),
        8 => w.packed_int32(&[rng.below(2) as i32]).unwrap(),
        9 => w.packed_float32(&[rng.pick(&floats)]).unwrap(),
        10 => w.object_id(0).unwrap(),
        11 => {
            let len = rng.below(3);
            w.begin_array(len).unwrap();
            for _ in 0..len {
                random_key(w, rng, version, budget - 1, false);
            }
        }
        12 => {
            let len = rng.below(3);
            w.begin_dictionary(len).unwrap();
            for _ in 0..len {
                random_key(w, rng, version, budget - 1, false);
                random_key(w, rng, version, budget - 1, false);
            }
        }
        _ => {
            let depth = 14 + rng.below(5);
            for _ in 0..depth {
                w.begin_array(1).unwrap();
            }
            random_key(w, rng, version, 0, false);
        }
    }
}

#[test]
fn key_order_and_merging_match_the_reference() {
    let mut rng = SplitMix(0x5EED_0001);
    for case in 0..600 {
        let version = if case % 2 == 0 { G3 } else { G4 };
        // Beyond Godot's insertion sort (up to 16 keys), with small nested keys, and within it
        // with keys nested 14 to 18 levels.
        let (count, budget, deep) = match case % 10 {
            0 => (257 + rng.below(100), 1, false),
            1..=3 => (17 + rng.below(60), 2, false),
            _ => (1 + rng.below(16), 2, true),
        };
        let bytes = encode(version, |w| {
            w.begin_dictionary(count).unwrap();
            for i in 0..count {
                random_key(w, &mut rng, version, budget, deep);
                w.int(i as i64).unwrap();
            }
        });
        let options = Options::new(version);
        let value = gdvariant::parse(&bytes, options).unwrap();
        let dictionary = value.as_dictionary().unwrap();
        let entries = dictionary.iter().map(Result::unwrap).collect();
        let text = |v| gdvariant::text::to_text_as(v, version).unwrap();
        let expected: Vec<String> = reference::print_order(entries, version)
            .into_iter()
            .map(|(k, v)| format!("{}: {}", text(k), v.map_or("null".to_owned(), text)))
            .collect();
        let expected = format!("{{\n{}\n}}", expected.join(",\n"));
        assert_eq!(text(value), expected, "case {case}, {version:?}, {count} entries");
    }
}
