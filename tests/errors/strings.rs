//! String lengths near `u32::MAX`: `StringOverrun` at the length field.

use super::*;

#[test]
fn huge_string_lengths_overrun_at_the_length_field() {
    let cases = [
        (Version::Godot4, 4u32, VariantType::String),
        (Version::Godot4, 21, VariantType::StringName),
        (Version::Godot3, 4, VariantType::String),
    ];
    for (version, id, ty) in cases {
        let o = opts(version);
        for declared in [0xFFFF_FFFFu32, 0x8000_0000, 0x7FFF_FFFF, 0x7FFF_FFFC] {
            let mut bytes = words(&[id, declared]);
            bytes.extend(b"abcdefgh");
            let expected = Error::new(4, ErrorKind::StringOverrun { declared });
            let what = format!("{version:?} {ty:?} {declared:#x}");
            assert_eq!(gdvariant::validate(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(gdvariant::parse_prefix(&bytes, o).unwrap_err(), expected, "{what}");
            assert_eq!(expected.godot_error(version), Some(GodotError::FileEof));
        }
        // The longest length that fits is fine; one more byte is not.
        let mut bytes = words(&[id, 8]);
        bytes.extend(b"abcdefgh");
        gdvariant::validate(&bytes, o).unwrap();
        let mut bytes = words(&[id, 9]);
        bytes.extend(b"abcdefgh");
        assert_eq!(
            gdvariant::validate(&bytes, o).unwrap_err(),
            Error::new(4, ErrorKind::StringOverrun { declared: 9 })
        );
    }
}
