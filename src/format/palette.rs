//! Colour names and values shared by the colour formats: `#RGB` / `#RRGGBB` hex values, the
//! common X11 colour names, and the characters that stand for colours in text output.

use crate::color::Color;

/// A few X11 colour names (those puzzle files use), lower case, with their components.
const NAMES: [(&str, [u8; 3]); 24] = [
    ("white", [255, 255, 255]),
    ("black", [0, 0, 0]),
    ("red", [255, 0, 0]),
    ("green", [0, 255, 0]),
    ("blue", [0, 0, 255]),
    ("yellow", [255, 255, 0]),
    ("orange", [255, 165, 0]),
    ("brown", [165, 42, 42]),
    ("gray", [190, 190, 190]),
    ("grey", [190, 190, 190]),
    ("pink", [255, 192, 203]),
    ("purple", [160, 32, 240]),
    ("violet", [238, 130, 238]),
    ("cyan", [0, 255, 255]),
    ("magenta", [255, 0, 255]),
    ("navy", [0, 0, 128]),
    ("maroon", [176, 48, 96]),
    ("olive", [128, 128, 0]),
    ("tan", [210, 180, 140]),
    ("gold", [255, 215, 0]),
    ("beige", [245, 245, 220]),
    ("darkgreen", [0, 100, 0]),
    ("lightblue", [173, 216, 230]),
    ("darkblue", [0, 0, 139]),
];

/// Parses `#RGB`, `#RRGGBB`, the same without `#`, or a known colour name.
pub(crate) fn parse_rgb(value: &str) -> Option<[u8; 3]> {
    let lower = value.trim().to_ascii_lowercase();
    if let Some(&(_, rgb)) = NAMES.iter().find(|(n, _)| *n == lower) {
        return Some(rgb);
    }
    let hex = lower.strip_prefix('#').unwrap_or(&lower);
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let digit = |i: usize| u8::from_str_radix(hex.get(i..=i)?, 16).ok();
    match hex.len() {
        3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17]),
        6 => {
            let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
            Some([byte(0)?, byte(2)?, byte(4)?])
        }
        _ => None,
    }
}

/// The name of a colour value: a known name when one matches, else `#RRGGBB`.
pub(crate) fn name_of(rgb: [u8; 3]) -> String {
    match NAMES.iter().find(|(_, v)| *v == rgb) {
        Some((name, _)) => (*name).to_string(),
        None => format!("#{:02X}{:02X}{:02X}", rgb[0], rgb[1], rgb[2]),
    }
}

/// Characters for text output when a file's own are missing or clash.
const SPARE: &str = "#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%&*+=";

/// Gives every colour a distinct printable character: the background `.`, the others their
/// own character when it is printable, not `.` or `?` and not taken, else a spare one.
pub(crate) fn assign_chars(colors: &mut [Color]) {
    let mut taken: Vec<char> = vec!['.', '?'];
    for (i, color) in colors.iter_mut().enumerate() {
        let own = color.ch;
        let usable = |c: char| c.is_ascii_graphic() && !taken.contains(&c);
        let ch = if i == 0 {
            '.'
        } else if usable(own) {
            own
        } else {
            SPARE
                .chars()
                .find(|&c| usable(c))
                .unwrap_or(char::REPLACEMENT_CHARACTER)
        };
        color.ch = ch;
        taken.push(ch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_and_names() {
        assert_eq!(parse_rgb("#FF0000"), Some([255, 0, 0]));
        assert_eq!(parse_rgb("f00"), Some([255, 0, 0]));
        assert_eq!(parse_rgb("Black"), Some([0, 0, 0]));
        assert_eq!(parse_rgb("#12"), None);
        assert_eq!(parse_rgb("chartreuse-ish"), None);
        assert_eq!(name_of([255, 0, 0]), "red");
        assert_eq!(name_of([1, 2, 3]), "#010203");
    }

    #[test]
    fn chars_are_distinct() {
        let mut colors = vec![
            Color::new("white", [255; 3], 'X'),
            Color::new("a", [0; 3], 'X'),
            Color::new("b", [0; 3], 'X'),
            Color::new("c", [0; 3], ' '),
        ];
        assign_chars(&mut colors);
        let chars: Vec<char> = colors.iter().map(|c| c.ch).collect();
        assert_eq!(chars, ['.', 'X', '#', 'a']);
    }
}
