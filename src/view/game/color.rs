//! `Color` from an `int` (`Color::hex`) and from a `String` (`Color(String)`: an HTML colour
//! code, else a named colour, else opaque black), as Godot 4.6 builds them. No allocation; a
//! string is read once (O(length)), and a name is compared only when its normalised form is
//! short enough to be one.

use crate::view::math::Color;
use crate::wire::work;

/// `Color::hex(u32)`: `0xRRGGBBAA`, each channel divided by 255 in single precision.
pub(crate) fn color_from_hex(hex: u32) -> Color<f32> {
    let channel = |shift: u32| f32::from(((hex >> shift) & 0xFF) as u8) / 255.0;
    Color { r: channel(24), g: channel(16), b: channel(8), a: channel(0) }
}

/// `Color(String)`: [`html`] when the text is a valid HTML code, else the named colour, else
/// `Color()`, opaque black (Godot logs "Invalid color name").
pub(crate) fn color_from_text(text: &str) -> Color<f32> {
    work::add(text.len() / 64);
    html(text).or_else(|| named(text)).unwrap_or(Color { r: 0.0, g: 0.0, b: 0.0, a: 1.0 })
}

/// `Color::html` for a text `Color::html_is_valid` accepts: an optional `#`, then 3, 4, 6 or 8
/// hexadecimal digits (`rgb`, `rgba`, `rrggbb`, `rrggbbaa`); `None` for anything else.
fn html(text: &str) -> Option<Color<f32>> {
    let digits = text.strip_prefix('#').unwrap_or(text);
    let mut values = [0u8; 8];
    let mut count = 0usize;
    for c in digits.chars() {
        let value = c.to_digit(16)?;
        *values.get_mut(count)? = value as u8;
        count = count.saturating_add(1);
    }
    let short = |i: usize| f32::from(values.get(i).copied().unwrap_or(0)) / 15.0;
    let long = |i: usize| {
        let high = values.get(i).copied().unwrap_or(0);
        let low = values.get(i.saturating_add(1)).copied().unwrap_or(0);
        f32::from(high.wrapping_mul(16).wrapping_add(low)) / 255.0
    };
    Some(match count {
        3 => Color { r: short(0), g: short(1), b: short(2), a: 1.0 },
        4 => Color { r: short(0), g: short(1), b: short(2), a: short(3) },
        6 => Color { r: long(0), g: long(2), b: long(4), a: 1.0 },
        8 => Color { r: long(0), g: long(2), b: long(4), a: long(6) },
        _ => return None,
    })
}

/// The longest name in [`NAMED_COLORS`], without its underscores.
const LONGEST_NAME: usize = 17;

/// `Color::named`: the text without spaces, `-`, `_`, `'` and `.`, upper-cased, compared with
/// the names of [`NAMED_COLORS`] without their underscores.
fn named(text: &str) -> Option<Color<f32>> {
    let mut normal = [0u8; LONGEST_NAME];
    let mut len = 0usize;
    for c in text.chars() {
        if matches!(c, ' ' | '-' | '_' | '\'' | '.') {
            continue;
        }
        // Only ASCII letters can match; the two other letters whose capital is ASCII are
        // Godot's too (`ı` to `I`, `ſ` to `S`).
        let upper = match c {
            'a'..='z' | 'A'..='Z' => c.to_ascii_uppercase() as u8,
            '\u{131}' => b'I',
            '\u{17F}' => b'S',
            _ => return None,
        };
        *normal.get_mut(len)? = upper;
        len = len.saturating_add(1);
    }
    let normal = normal.get(..len)?;
    NAMED_COLORS.iter().find_map(|&(name, hex)| {
        let mut letters = name.bytes().filter(|&b| b != b'_');
        let same = normal.iter().all(|&b| letters.next() == Some(b)) && letters.next().is_none();
        same.then(|| color_from_hex(hex))
    })
}

/// Godot 4.6's named colours (`core/math/color_names.inc`), as `Color::hex` codes.
const NAMED_COLORS: [(&str, u32); 146] = [
    ("ALICE_BLUE", 0xF0F8FFFF),
    ("ANTIQUE_WHITE", 0xFAEBD7FF),
    ("AQUA", 0x00FFFFFF),
    ("AQUAMARINE", 0x7FFFD4FF),
    ("AZURE", 0xF0FFFFFF),
    ("BEIGE", 0xF5F5DCFF),
    ("BISQUE", 0xFFE4C4FF),
    ("BLACK", 0x000000FF),
    ("BLANCHED_ALMOND", 0xFFEBCDFF),
    ("BLUE", 0x0000FFFF),
    ("BLUE_VIOLET", 0x8A2BE2FF),
    ("BROWN", 0xA52A2AFF),
    ("BURLYWOOD", 0xDEB887FF),
    ("CADET_BLUE", 0x5F9EA0FF),
    ("CHARTREUSE", 0x7FFF00FF),
    ("CHOCOLATE", 0xD2691EFF),
    ("CORAL", 0xFF7F50FF),
    ("CORNFLOWER_BLUE", 0x6495EDFF),
    ("CORNSILK", 0xFFF8DCFF),
    ("CRIMSON", 0xDC143CFF),
    ("CYAN", 0x00FFFFFF),
    ("DARK_BLUE", 0x00008BFF),
    ("DARK_CYAN", 0x008B8BFF),
    ("DARK_GOLDENROD", 0xB8860BFF),
    ("DARK_GRAY", 0xA9A9A9FF),
    ("DARK_GREEN", 0x006400FF),
    ("DARK_KHAKI", 0xBDB76BFF),
    ("DARK_MAGENTA", 0x8B008BFF),
    ("DARK_OLIVE_GREEN", 0x556B2FFF),
    ("DARK_ORANGE", 0xFF8C00FF),
    ("DARK_ORCHID", 0x9932CCFF),
    ("DARK_RED", 0x8B0000FF),
    ("DARK_SALMON", 0xE9967AFF),
    ("DARK_SEA_GREEN", 0x8FBC8FFF),
    ("DARK_SLATE_BLUE", 0x483D8BFF),
    ("DARK_SLATE_GRAY", 0x2F4F4FFF),
    ("DARK_TURQUOISE", 0x00CED1FF),
    ("DARK_VIOLET", 0x9400D3FF),
    ("DEEP_PINK", 0xFF1493FF),
    ("DEEP_SKY_BLUE", 0x00BFFFFF),
    ("DIM_GRAY", 0x696969FF),
    ("DODGER_BLUE", 0x1E90FFFF),
    ("FIREBRICK", 0xB22222FF),
    ("FLORAL_WHITE", 0xFFFAF0FF),
    ("FOREST_GREEN", 0x228B22FF),
    ("FUCHSIA", 0xFF00FFFF),
    ("GAINSBORO", 0xDCDCDCFF),
    ("GHOST_WHITE", 0xF8F8FFFF),
    ("GOLD", 0xFFD700FF),
    ("GOLDENROD", 0xDAA520FF),
    ("GRAY", 0xBEBEBEFF),
    ("GREEN", 0x00FF00FF),
    ("GREEN_YELLOW", 0xADFF2FFF),
    ("HONEYDEW", 0xF0FFF0FF),
    ("HOT_PINK", 0xFF69B4FF),
    ("INDIAN_RED", 0xCD5C5CFF),
    ("INDIGO", 0x4B0082FF),
    ("IVORY", 0xFFFFF0FF),
    ("KHAKI", 0xF0E68CFF),
    ("LAVENDER", 0xE6E6FAFF),
    ("LAVENDER_BLUSH", 0xFFF0F5FF),
    ("LAWN_GREEN", 0x7CFC00FF),
    ("LEMON_CHIFFON", 0xFFFACDFF),
    ("LIGHT_BLUE", 0xADD8E6FF),
    ("LIGHT_CORAL", 0xF08080FF),
    ("LIGHT_CYAN", 0xE0FFFFFF),
    ("LIGHT_GOLDENROD", 0xFAFAD2FF),
    ("LIGHT_GRAY", 0xD3D3D3FF),
    ("LIGHT_GREEN", 0x90EE90FF),
    ("LIGHT_PINK", 0xFFB6C1FF),
    ("LIGHT_SALMON", 0xFFA07AFF),
    ("LIGHT_SEA_GREEN", 0x20B2AAFF),
    ("LIGHT_SKY_BLUE", 0x87CEFAFF),
    ("LIGHT_SLATE_GRAY", 0x778899FF),
    ("LIGHT_STEEL_BLUE", 0xB0C4DEFF),
    ("LIGHT_YELLOW", 0xFFFFE0FF),
    ("LIME", 0x00FF00FF),
    ("LIME_GREEN", 0x32CD32FF),
    ("LINEN", 0xFAF0E6FF),
    ("MAGENTA", 0xFF00FFFF),
    ("MAROON", 0xB03060FF),
    ("MEDIUM_AQUAMARINE", 0x66CDAAFF),
    ("MEDIUM_BLUE", 0x0000CDFF),
    ("MEDIUM_ORCHID", 0xBA55D3FF),
    ("MEDIUM_PURPLE", 0x9370DBFF),
    ("MEDIUM_SEA_GREEN", 0x3CB371FF),
    ("MEDIUM_SLATE_BLUE", 0x7B68EEFF),
    ("MEDIUM_SPRING_GREEN", 0x00FA9AFF),
    ("MEDIUM_TURQUOISE", 0x48D1CCFF),
    ("MEDIUM_VIOLET_RED", 0xC71585FF),
    ("MIDNIGHT_BLUE", 0x191970FF),
    ("MINT_CREAM", 0xF5FFFAFF),
    ("MISTY_ROSE", 0xFFE4E1FF),
    ("MOCCASIN", 0xFFE4B5FF),
    ("NAVAJO_WHITE", 0xFFDEADFF),
    ("NAVY_BLUE", 0x000080FF),
    ("OLD_LACE", 0xFDF5E6FF),
    ("OLIVE", 0x808000FF),
    ("OLIVE_DRAB", 0x6B8E23FF),
    ("ORANGE", 0xFFA500FF),
    ("ORANGE_RED", 0xFF4500FF),
    ("ORCHID", 0xDA70D6FF),
    ("PALE_GOLDENROD", 0xEEE8AAFF),
    ("PALE_GREEN", 0x98FB98FF),
    ("PALE_TURQUOISE", 0xAFEEEEFF),
    ("PALE_VIOLET_RED", 0xDB7093FF),
    ("PAPAYA_WHIP", 0xFFEFD5FF),
    ("PEACH_PUFF", 0xFFDAB9FF),
    ("PERU", 0xCD853FFF),
    ("PINK", 0xFFC0CBFF),
    ("PLUM", 0xDDA0DDFF),
    ("POWDER_BLUE", 0xB0E0E6FF),
    ("PURPLE", 0xA020F0FF),
    ("REBECCA_PURPLE", 0x663399FF),
    ("RED", 0xFF0000FF),
    ("ROSY_BROWN", 0xBC8F8FFF),
    ("ROYAL_BLUE", 0x4169E1FF),
    ("SADDLE_BROWN", 0x8B4513FF),
    ("SALMON", 0xFA8072FF),
    ("SANDY_BROWN", 0xF4A460FF),
    ("SEA_GREEN", 0x2E8B57FF),
    ("SEASHELL", 0xFFF5EEFF),
    ("SIENNA", 0xA0522DFF),
    ("SILVER", 0xC0C0C0FF),
    ("SKY_BLUE", 0x87CEEBFF),
    ("SLATE_BLUE", 0x6A5ACDFF),
    ("SLATE_GRAY", 0x708090FF),
    ("SNOW", 0xFFFAFAFF),
    ("SPRING_GREEN", 0x00FF7FFF),
    ("STEEL_BLUE", 0x4682B4FF),
    ("TAN", 0xD2B48CFF),
    ("TEAL", 0x008080FF),
    ("THISTLE", 0xD8BFD8FF),
    ("TOMATO", 0xFF6347FF),
    ("TRANSPARENT", 0xFFFFFF00),
    ("TURQUOISE", 0x40E0D0FF),
    ("VIOLET", 0xEE82EEFF),
    ("WEB_GRAY", 0x808080FF),
    ("WEB_GREEN", 0x008000FF),
    ("WEB_MAROON", 0x800000FF),
    ("WEB_PURPLE", 0x800080FF),
    ("WHEAT", 0xF5DEB3FF),
    ("WHITE", 0xFFFFFFFF),
    ("WHITE_SMOKE", 0xF5F5F5FF),
    ("YELLOW", 0xFFFF00FF),
    ("YELLOW_GREEN", 0x9ACD32FF),
];
