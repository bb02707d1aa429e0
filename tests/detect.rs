//! `gdvariant::detect` on both engines' corpora and on crafted bytes for each reason.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::arithmetic_side_effects
)]

mod common;

use common::{corpus, manifest};
use gdvariant::detection::Verdict;
use gdvariant::{EncodeOptions, Version, Writer};

use Version::{Godot3 as G3, Godot4 as G4};

/// Corpus cases both versions read whole, as two different values of the same size: detection
/// cannot tell them apart and answers Godot 4 (the format's advice).
const AMBIGUOUS: &[(Version, &str, &str)] = &[
    (G3, "aabb_basic", "a Godot 3 AABB is six plausible reals, a fine Godot 4 Transform2D"),
    (G3, "color_basic", "a Godot 3 Color is four plausible reals, a fine Godot 4 Plane"),
    (G3, "color_red", "a Godot 3 Color is four plausible reals, a fine Godot 4 Plane"),
    (G3, "color_over1", "a Godot 3 Color is four plausible reals, a fine Godot 4 Plane"),
    (G3, "pool_int_empty", "byte for byte Godot 4's empty StringName"),
    (G3, "pool_int_truncated", "PoolIntArray([5]) is Godot 4's StringName \"\\u{5}\""),
    (G4, "stringname_empty", "byte for byte Godot 3's empty PoolIntArray"),
    (G4, "transform2d_identity", "six plausible reals, a fine Godot 3 AABB"),
    (G4, "transform2d_distinct", "six plausible reals, a fine Godot 3 AABB"),
    (G4, "plane_basic", "four plausible reals, a fine Godot 3 Color"),
];

/// Every value case with bytes: (name, type id, bytes).
fn cases(version: Version) -> Vec<(String, u64, Vec<u8>)> {
    manifest(version)
        .into_iter()
        .filter(|c| c["kind"] == "var_to_bytes" || c["kind"] == "var2bytes")
        .filter(|c| c["encode_failed"] != true)
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_owned();
            let bytes = corpus(version, &name);
            (name, u64::from(bytes[0]), bytes) // the id on the wire (a null object is Nil)
        })
        .collect()
}

#[test]
fn cases_whose_id_differs_between_versions_are_detected_as_their_engine() {
    let mut failures = Vec::new();
    let mut detected = 0;
    for version in [G3, G4] {
        for (name, id, bytes) in cases(version) {
            if id <= 5 {
                continue;
            }
            let detection = gdvariant::detect(&bytes);
            let ambiguous = AMBIGUOUS.iter().any(|(v, n, _)| *v == version && *n == name);
            let expected = match version {
                G3 => Verdict::Godot3Only,
                G4 => Verdict::Godot4Only,
            };
            match (detection.verdict(), ambiguous) {
                (verdict, false) if verdict == expected => {
                    assert_eq!(detection.version(), Some(version));
                    detected += 1;
                }
                (Verdict::Both, true) => assert_eq!(detection.version(), Some(G4)),
                (verdict, _) => {
                    failures.push(format!("{version:?} {name}: {verdict:?}: {detection}"))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(detected > 170, "{detected}");
}

#[test]
fn ids_0_to_5_are_both_and_mean_the_same() {
    let mut same_bytes = 0;
    for version in [G3, G4] {
        for (name, id, bytes) in cases(version) {
            if id > 5 {
                continue;
            }
            let detection = gdvariant::detect(&bytes);
            assert_eq!(detection.verdict(), Verdict::Both, "{version:?} {name}: {detection}");
            assert!(detection.same_meaning(), "{name}");
            assert_eq!(detection.version(), Some(G4), "{name}");
            assert!(detection.to_string().starts_with("both: the bytes are valid in both"));
            // The same value written by the other engine is the same bytes.
            let other = match version {
                G3 => G4,
                G4 => G3,
            };
            if let Some((_, _, theirs)) = cases(other).into_iter().find(|(n, _, _)| *n == name) {
                assert_eq!(bytes, theirs, "{name}");
                same_bytes += 1;
            }
        }
    }
    assert!(same_bytes > 80, "{same_bytes}");
}

fn encode(version: Version, build: impl FnOnce(&mut Writer<Vec<u8>>)) -> Vec<u8> {
    let options = match version {
        G3 => EncodeOptions::godot3(),
        G4 => EncodeOptions::godot4(),
    };
    let mut writer = Writer::new(Vec::new(), options);
    build(&mut writer);
    writer.finish().unwrap()
}

#[test]
fn each_reason_is_explained() {
    // Type ids 0 to 5 mean the same.
    let d = gdvariant::detect(&encode(G3, |w| w.string("hi").unwrap()));
    assert_eq!(d.verdict(), Verdict::Both);
    assert_eq!(
        d.to_string(),
        "both: the bytes are valid in both versions and mean the same (type id 4, String)"
    );

    // An id Godot 3 does not have.
    let d = gdvariant::detect(&encode(G4, |w| w.begin_array(0).unwrap()));
    assert_eq!((d.verdict(), d.version()), (Verdict::Godot4Only, Some(G4)));
    assert_eq!(d.to_string(), "Godot 4: type id 28 (Array) does not exist in Godot 3");
    assert!(d.godot3_error().is_some() && d.godot4_error().is_none());

    // Godot 3's empty Dictionary (id 18) is a truncated Transform3D to Godot 4.
    let d = gdvariant::detect(&[18, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!((d.verdict(), d.version()), (Verdict::Godot3Only, Some(G3)));
    assert_eq!(
        d.to_string(),
        "Godot 3: valid as Godot 3 Dictionary, Godot 4 refuses it: input ends inside a field \
         that needs 48 bytes at byte offset 4"
    );

    // Godot 4's StringName (id 21) is a Godot 3 PoolIntArray whose count runs past the end.
    let d = gdvariant::detect(&encode(G4, |w| w.string_name("abc").unwrap()));
    assert_eq!(d.verdict(), Verdict::Godot4Only);
    assert!(
        d.to_string().starts_with("Godot 4: valid as Godot 4 StringName, Godot 3 refuses it: ")
    );

    // Godot 3's Rect2 (id 6, 16 bytes) reads in Godot 4 as a Vector2i (8 bytes) plus 8 left over.
    let rect = encode(G3, |w| {
        w.rect2(gdvariant::math::Rect2 {
            position: gdvariant::math::Vector2 { x: 1.0, y: 2.0 },
            size: gdvariant::math::Vector2 { x: 3.0, y: 4.0 },
        })
        .unwrap()
    });
    let d = gdvariant::detect(&rect);
    assert_eq!((d.verdict(), d.version()), (Verdict::Godot3Only, Some(G3)));
    assert_eq!(
        d.to_string(),
        "Godot 3: valid as Godot 3 Rect2 (20 bytes); Godot 4 reads a Vector2i of 12 bytes and \
         leaves the rest"
    );

    // Godot 3's AABB and Godot 4's Transform2D (id 11) are both six f32s.
    let mut same_size = vec![11, 0, 0, 0];
    same_size.extend_from_slice(&[0; 24]);
    let d = gdvariant::detect(&same_size);
    assert_eq!((d.verdict(), d.version()), (Verdict::Both, Some(G4)));
    assert!(!d.same_meaning());
    assert_eq!(
        d.to_string(),
        "both: valid in both versions as different values (Godot 3 AABB, Godot 4 Transform2D); \
         read as Godot 4, the preferred version"
    );

    // Godot 3's {"a": 1, "b": "two"} is 48 bytes after its header, like a Godot 4 Transform3D,
    // whose reals would be subnormal.
    let d = gdvariant::detect(&corpus(G3, "dict_simple"));
    assert_eq!((d.verdict(), d.version()), (Verdict::Godot3Only, Some(G3)));
    assert_eq!(
        d.to_string(),
        "Godot 3: valid as Godot 3 Dictionary; Godot 4 reads a Transform3D no engine writes (a \
         NaN, infinite or subnormal real, or an object without a class)"
    );

    // Neither.
    let d = gdvariant::detect(&[200, 0, 0, 0]);
    assert_eq!((d.verdict(), d.version()), (Verdict::Neither, None));
    assert_eq!(
        d.to_string(),
        "neither: both versions refuse it: unknown type id 200 at byte offset 0"
    );
    let d = gdvariant::detect(&[]);
    assert_eq!((d.verdict(), d.type_id()), (Verdict::Neither, None));
    assert_eq!(d.to_string(), "neither: empty input: no Godot value");
}

#[test]
fn full_objects_are_told_apart_by_their_class() {
    // Godot 3's Reference does not exist in Godot 4 (RefCounted), and the other way round.
    for (version, name) in [(G3, "object_reference_full"), (G4, "object_refcounted_full")] {
        let d = gdvariant::detect(&corpus(version, name));
        assert_eq!(d.version(), Some(version), "{name}: {d}");
    }
}

/// A minimal PNG: the signature, then an IHDR chunk for a 1x1 RGB image.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

#[test]
fn bytes_of_other_files_are_named_by_their_magic() {
    use gdvariant::detection::{Foreign, foreign};
    let elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\x3e\0";
    let cases: &[(&[u8], Foreign, &str)] = &[
        (PNG, Foreign::Png, "a PNG image"),
        (b"\xff\xd8\xff\xe0\0\x10JFIF\0", Foreign::Jpeg, "a JPEG image"),
        (b"GIF89a\x01\0\x01\0\0\0\0", Foreign::Gif, "a GIF image"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", Foreign::Pdf, "a PDF document"),
        (elf, Foreign::Elf, "an ELF executable"),
        (b"MZ\x90\0\x03\0\0\0\x04\0", Foreign::Pe, "a Windows (PE/MZ) executable"),
        (b"\x1f\x8b\x08\0\x5a\x6b\x8c\x65\0\x03\x03\0\0\0\0\0\0\0\0\0", Foreign::Gzip, "gzip"),
        (b"\x28\xb5\x2f\xfd\x20\0\x01\0\0", Foreign::Zstd, "Zstandard"),
        (b"PK\x03\x04\x14\0\0\0\x08\0", Foreign::Zip, "a zip archive"),
        (b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", Foreign::Zip, "a zip archive"),
        (b"GDPC\x02\0\0\0\x04\0\0\0", Foreign::GodotPack, "a Godot PCK archive"),
        (b"RSRC\0\0\0\0\0\0\0\0\x04\0\0\0", Foreign::GodotResource, "Godot binary resource"),
        (b"RSCC\0\0\0\0\0\0\x01\0", Foreign::GodotCompressed, "open_compressed"),
        (b"GDEC\x01\0\0\0", Foreign::GodotEncrypted, "open_encrypted"),
        (b"GDSC\x64\0\0\0", Foreign::GodotScript, "a compiled GDScript"),
        (b"GST2\x01\0\0\0", Foreign::GodotTexture, "imported texture"),
        (b"GDST\x01\0\0\0", Foreign::GodotTexture, "imported texture"),
        (
            b"[gd_scene format=3]\n\n[node name=\"A\" type=\"Node\"]\n",
            Foreign::GodotTextScene,
            ".tscn",
        ),
        (
            b"\xef\xbb\xbf[gd_resource type=\"Theme\" format=3]\n",
            Foreign::GodotTextResource,
            ".tres",
        ),
        (b"{\n\"pos\": Vector2(1, 2)\n}", Foreign::GodotText, "var_to_str"),
        (b"Vector2( 1, 2 )", Foreign::GodotText, "var_to_str"),
        (b"[&\"name\", ^\"path\"]", Foreign::GodotText, "var_to_str"),
        (b"{\"a\": [1, 2.5, null], \"Vector2(\": true}\n", Foreign::Json, "JSON"),
        (b"  -12\n", Foreign::Json, "JSON"),
        (b"hello, world\n", Foreign::Text, "text"),
        (b"", Foreign::Empty, "empty input"),
    ];
    for (bytes, kind, words) in cases {
        assert_eq!(foreign(bytes), Some(*kind), "{bytes:?}");
        assert!(kind.what().contains(words), "{kind:?}: {}", kind.what());
        // None of them is a value, and detection says what they are.
        let d = gdvariant::detect(bytes);
        assert_eq!((d.verdict(), d.foreign()), (Verdict::Neither, Some(*kind)), "{bytes:?}");
        assert_eq!(d.to_string(), format!("neither: {kind}"));
    }
    assert_eq!(
        gdvariant::detect(PNG).to_string(),
        "neither: not Godot Variant data: this looks like a PNG image"
    );
    assert_eq!(
        Foreign::GodotText.to_string(),
        "not Godot Variant data: this looks like Godot's var_to_str text (str_to_var (Godot 3: \
         str2var) reads text; var_to_bytes (var2bytes) writes the binary form this reads)"
    );

    // Binary bytes of no known kind, and text cut inside a character at the window's end.
    assert_eq!(foreign(&[0x1b, 0, 0, 0]), None);
    assert_eq!(foreign(&[0xc8, 0, 0, 0]), None);
    assert_eq!(foreign(b"abc\x01def"), None, "a control character is not text");
    let mut long = "é".repeat(gdvariant::detection::TEXT_WINDOW);
    assert_eq!(foreign(long.as_bytes()), Some(Foreign::Text));
    long.push('\0'); // past the window: not looked at
    assert_eq!(foreign(long.as_bytes()), Some(Foreign::Text));
    assert_eq!(foreign(b"\xff\xfe\0\0"), None, "invalid UTF-8 is not text");
}

#[test]
fn values_that_begin_like_other_files_stay_values() {
    use gdvariant::detection::{Foreign, foreign};
    // Godot ignores header bits 8 to 15 and unknown flag bits, so these are Godot 4 values:
    // gzip's magic (with a zero time stamp, as `gzip -n` writes) is an empty PackedInt64Array
    // (id 31), a PDF's an array of 45 Colors (id 37, count `-\0\0\0`), text's a
    // PackedFloat32Array (id 32: a space) of 0 elements.
    let mut pdf = b"%PDF-\0\0\0".to_vec();
    pdf.extend_from_slice(&[0; 45 * 16]);
    let cases: [(&[u8], Foreign); 3] = [
        (b"\x1f\x8b\x08\0\0\0\0\0", Foreign::Gzip),
        (&pdf, Foreign::Pdf),
        (b" \t\t\t\0\0\0\0", Foreign::Text),
    ];
    for (bytes, looks_like) in cases {
        // The magic test alone would name them ...
        if looks_like == Foreign::Text {
            assert_eq!(foreign(bytes), None, "a NUL byte is not text");
        } else {
            assert_eq!(foreign(bytes), Some(looks_like));
        }
        // ... but Godot reads them, and detection says so.
        assert_eq!(gdvariant::validate(bytes, gdvariant::Options::godot4()), Ok(()));
        let d = gdvariant::detect(bytes);
        assert_eq!(d.version(), Some(G4), "{d}");
        assert_eq!(d.foreign(), None);
        assert!(!d.to_string().contains("looks like"), "{d}");
    }
}

#[test]
fn the_reason_of_the_reading_that_got_further_comes_first() {
    // Godot 4's {"z": 1, "a": 2, "m": 3} cut to 20 bytes: Godot 3 stops at the header (no id
    // 27), Godot 4 at the element count (byte 4).
    let bytes = &corpus(G4, "dict_order")[..20];
    let d = gdvariant::detect(bytes);
    let [(first, first_error), (second, second_error)] = d.refusals().unwrap();
    assert_eq!((first, second), (G4, G3));
    assert_eq!((first_error.offset(), second_error.offset()), (4, 0));
    assert!(
        d.to_string().starts_with("neither: Godot 4 refuses it: element count 3 does not fit"),
        "{d}"
    );
    assert!(d.to_string().ends_with("; Godot 3 refuses it: unknown type id 27 at byte offset 0"));
    // Godot 3's {"a": 1, "b": "two"} cut short: Godot 4 reads a Transform3D header (id 18)
    // and needs 48 bytes at 4; Godot 3 reads the Dictionary's entries further.
    let bytes = &corpus(G3, "dict_simple")[..30];
    let d = gdvariant::detect(bytes);
    assert_eq!(d.refusals().unwrap()[0].0, G3, "{d}");
    // At the same offset, the version that has the type id leads.
    let d = gdvariant::detect(&[0x1b, 0, 0, 0]);
    assert_eq!(d.refusals().unwrap()[0].0, G4, "{d}");
    // Accepted bytes have no refusals.
    assert_eq!(gdvariant::detect(&[2, 0, 0, 0, 7, 0, 0, 0]).refusals(), None);
}
