//! Pictures and puzzles: a picture (a palette and a palette index per pixel) read from a PBM or
//! XPM image, or from RGBA pixels decoded elsewhere (the library decodes no PNG), becomes a
//! colour puzzle with its clues (whether they have one solution is `uniqueness.rs`'s);
//! [`svg_image`] draws a solution.

use std::fmt::Write as _;

use thiserror::Error;

use crate::color::{Color, ColorPuzzle, MAX_COLORS, bw_palette};
use crate::puzzle::{MAX_LINE_LEN, PuzzleError};

/// A picture: a palette (index 0 the background) and a palette index per pixel.
///
/// ```
/// use nonoenum::{AnyPuzzle, Picture};
///
/// let picture = Picture::read_pbm(b"P1\n3 2\n1 0 1\n0 1 1\n")?;
/// assert_eq!(picture.cells, [1, 0, 1, 0, 1, 1]);
/// let puzzle = AnyPuzzle::Color(picture.puzzle()?);
/// let check = puzzle.uniqueness(1, 2, Default::default())?;
/// assert_eq!((check.found, check.exhausted), (1, true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Pixels a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The palette, the background first.
    pub colors: Vec<Color>,
    /// Palette indices, row-major.
    pub cells: Vec<u8>,
}

/// Why bytes are not a picture: what is wrong with them.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct PictureError(String);

/// Returns early with a [`PictureError`] of the formatted text.
macro_rules! refuse {
    ($($text:tt)*) => {
        return Err(PictureError(format!($($text)*)))
    };
}

impl Picture {
    /// Checks a picture's size: 1 to [`MAX_LINE_LEN`] pixels a side (before decoding pixels).
    pub fn check_size(width: usize, height: usize) -> Result<(), PictureError> {
        if width == 0 || height == 0 || width > MAX_LINE_LEN || height > MAX_LINE_LEN {
            refuse!("size {width}x{height} is out of range (1 to {MAX_LINE_LEN} pixels a side)");
        }
        Ok(())
    }

    /// A PBM image: `P1` (ASCII `0`/`1`) or `P4` (packed bits), `#` comments in the header;
    /// 1 is black.
    pub fn read_pbm(bytes: &[u8]) -> Result<Picture, PictureError> {
        let ascii = bytes.starts_with(b"P1");
        if !ascii && !bytes.starts_with(b"P4") {
            refuse!("not a PBM image (P1 or P4)");
        }
        let (width, height, pos) = pbm_header(bytes)?;
        Self::check_size(width, height)?;
        let mut cells = Vec::with_capacity(width * height);
        if ascii {
            for &b in &bytes[pos..] {
                match b {
                    b'0' | b'1' => cells.push(b - b'0'),
                    b'#' => refuse!("comments among the pixels are not supported"),
                    _ if b.is_ascii_whitespace() => {}
                    _ => refuse!("pixel `{}` is not 0 or 1", char::from(b)),
                }
            }
        } else {
            let row_bytes = width.div_ceil(8);
            let data = bytes.get(pos + 1..).unwrap_or_default();
            if data.len() < row_bytes * height {
                let (got, expected) = (data.len(), row_bytes * height);
                refuse!("{got} bytes of pixels, expected {expected}");
            }
            for r in 0..height {
                for c in 0..width {
                    cells.push(data[r * row_bytes + c / 8] >> (7 - c % 8) & 1);
                }
            }
        }
        if cells.len() < width * height {
            refuse!("{} pixels, expected {}", cells.len(), width * height);
        }
        cells.truncate(width * height);
        Ok(Picture {
            width,
            height,
            colors: bw_palette(),
            cells,
        })
    }

    /// RGBA pixels, row-major, as a picture: the background is transparent or white if any
    /// pixel is, else the most common colour; the other colours follow in order of first
    /// appearance, at most [`MAX_COLORS`] in all. The size is checked ([`Picture::check_size`]),
    /// and the pixels must be `width * height`.
    pub fn from_rgba(
        width: usize,
        height: usize,
        pixels: &[[u8; 4]],
    ) -> Result<Picture, PictureError> {
        Self::check_size(width, height)?;
        if pixels.len() != width * height {
            refuse!("{} pixels for a {width}x{height} picture", pixels.len());
        }
        let key = |p: &[u8; 4]| {
            if p[3] < 128 {
                [255, 255, 255]
            } else {
                [p[0], p[1], p[2]]
            }
        };
        let mut seen: Vec<([u8; 3], usize)> = Vec::new();
        for p in pixels {
            let k = key(p);
            let full = seen.len() == MAX_COLORS;
            match seen.iter_mut().find(|(c, _)| *c == k) {
                Some((_, n)) => *n += 1,
                None if full => refuse!("more than {MAX_COLORS} colours (reduce the palette)"),
                None => seen.push((k, 1)),
            }
        }
        let background = seen
            .iter()
            .position(|(c, _)| *c == [255, 255, 255])
            .or_else(|| (0..seen.len()).max_by_key(|&i| seen[i].1))
            .unwrap_or(0);
        let first = seen.get(background).map_or([255; 3], |(c, _)| *c);
        let mut order: Vec<[u8; 3]> = vec![first];
        order.extend(seen.iter().map(|(c, _)| *c).filter(|c| *c != first));
        let letters = "#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let colors = order
            .iter()
            .enumerate()
            .map(|(i, &rgb)| {
                let [r, g, b] = rgb;
                let ch = match i {
                    0 => '.',
                    _ => letters.chars().nth(i - 1).unwrap_or('?'),
                };
                Color::new(format!("#{r:02X}{g:02X}{b:02X}"), rgb, ch)
            })
            .collect();
        let cells = pixels
            .iter()
            .map(|p| order.iter().position(|c| *c == key(p)).unwrap_or(0) as u8)
            .collect();
        Ok(Picture {
            width,
            height,
            colors,
            cells,
        })
    }

    /// 8-bit samples, row-major, as image decoders give them, as a picture: `per_pixel` of 1
    /// (grey), 2 (grey and alpha), 3 (RGB) or 4 (RGBA) samples a pixel; then as
    /// [`Picture::from_rgba`]. Samples past the `width * height` pixels are ignored.
    pub fn from_samples(
        width: usize,
        height: usize,
        samples: &[u8],
        per_pixel: usize,
    ) -> Result<Picture, PictureError> {
        if !(1..=4).contains(&per_pixel) {
            refuse!("{per_pixel} samples a pixel (1 to 4 are read)");
        }
        let pixels: Vec<[u8; 4]> = (samples.chunks_exact(per_pixel).take(width * height))
            .map(|p| match *p {
                [g] => [g, g, g, 255],
                [g, a] => [g, g, g, a],
                [r, g, b] => [r, g, b, 255],
                [r, g, b, a, ..] => [r, g, b, a],
                [] => [255; 4],
            })
            .collect();
        Self::from_rgba(width, height, &pixels)
    }

    /// An XPM 3 image: the quoted strings of a C array, `"W H NCOLORS CPP"`, the colour lines
    /// (`"ab c #RRGGBB"` or `c None`), then the rows of pixels.
    pub fn read_xpm(bytes: &[u8]) -> Result<Picture, PictureError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => refuse!("not UTF-8 text: {e}"),
        };
        let strings: Vec<&str> = text.split('"').skip(1).step_by(2).collect();
        let Some(values) = strings.first() else {
            refuse!("no values string");
        };
        let header: Result<Vec<usize>, _> =
            values.split_whitespace().take(4).map(str::parse).collect();
        let header = match header {
            Ok(header) => header,
            Err(e) => refuse!(
                "the values string needs width, height, colours and characters per pixel: {e}"
            ),
        };
        let [width, height, ncolors, cpp] = header[..] else {
            refuse!("the values string needs 4 numbers");
        };
        Self::check_size(width, height)?;
        // Checked: a huge colour count must not overflow.
        let needed = ncolors.checked_add(height).and_then(|n| n.checked_add(1));
        if cpp == 0 || cpp > 4 || needed.is_none_or(|n| strings.len() < n) {
            refuse!("expected {ncolors} colours and {height} rows of pixels");
        }
        let keys = strings[1..=ncolors]
            .iter()
            .map(|line| xpm_colour(line, cpp))
            .collect::<Result<Vec<_>, _>>()?;
        let mut pixels = Vec::with_capacity(width * height);
        for row in &strings[1 + ncolors..1 + ncolors + height] {
            if row.len() != width * cpp {
                refuse!(
                    "a row of {} characters, expected {}",
                    row.len(),
                    width * cpp
                );
            }
            for c in 0..width {
                // A character of several bytes may straddle two pixels' keys.
                let Some(key) = row.get(c * cpp..(c + 1) * cpp) else {
                    refuse!("pixel {} is not {cpp} ASCII characters", c + 1);
                };
                let Some((_, rgba)) = keys.iter().find(|(k, _)| *k == key) else {
                    refuse!("pixel `{key}` has no colour");
                };
                pixels.push(*rgba);
            }
        }
        Self::from_rgba(width, height, &pixels)
    }

    /// The colour puzzle whose clues are this picture's (without the picture as its goal).
    pub fn puzzle(&self) -> Result<ColorPuzzle, PuzzleError> {
        ColorPuzzle::from_picture(self.colors.clone(), self.height, self.width, &self.cells)
    }
}

/// A PBM header's width and height, and where the pixels start.
fn pbm_header(bytes: &[u8]) -> Result<(usize, usize, usize), PictureError> {
    let mut pos = 2;
    let mut header = Vec::new();
    while header.len() < 2 {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos < bytes.len() && bytes[pos] == b'#' {
            while pos < bytes.len() && bytes[pos] != b'\n' {
                pos += 1;
            }
            continue;
        }
        let start = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_digit() {
            pos += 1;
        }
        let what = ["width", "height"][header.len()];
        let ends = bytes
            .get(pos)
            .is_none_or(|&b| b.is_ascii_whitespace() || b == b'#');
        if pos == bytes.len() && start == pos {
            refuse!("the header needs a width and a height, found no {what}");
        } else if start == pos || !ends {
            let word = bytes[start..]
                .split(u8::is_ascii_whitespace)
                .next()
                .unwrap_or_default();
            let word: String = String::from_utf8_lossy(word).chars().take(20).collect();
            refuse!("the header's {what} `{word}` is not a number");
        }
        let text = std::str::from_utf8(&bytes[start..pos]).unwrap_or_default();
        match text.parse() {
            Ok(n) => header.push(n),
            Err(_) => refuse!("the header's {what} {text} is too large"),
        }
    }
    Ok((header[0], header[1], pos))
}

/// One XPM colour line: its key of `cpp` characters and its colour (`None`: transparent).
fn xpm_colour(line: &str, cpp: usize) -> Result<(&str, [u8; 4]), PictureError> {
    let Some(key) = line.get(..cpp) else {
        refuse!("a colour line shorter than its key");
    };
    let words: Vec<&str> = line[cpp..].split_whitespace().collect();
    let Some(value) = words.windows(2).find(|w| w[0] == "c").map(|w| w[1]) else {
        refuse!("a colour line without a `c` value");
    };
    if value.eq_ignore_ascii_case("none") {
        return Ok((key, [255, 255, 255, 0]));
    }
    let hex = value.trim_start_matches('#');
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("zz"), 16);
    match (hex.len(), byte(0), byte(2), byte(4)) {
        (6, Ok(r), Ok(g), Ok(b)) => Ok((key, [r, g, b, 255])),
        _ => refuse!("colour `{value}` is not #RRGGBB or None"),
    }
}

/// Pixels a cell side in the images of solutions ([`svg_image`], and the command's PNG), on
/// grids small enough ([`cell_pixels`]).
pub const CELL_PIXELS: usize = 12;

/// The longest side, in pixels, of an image of a solution: past it, cells shrink.
pub const MAX_IMAGE_SIDE: usize = 8192;

/// Pixels a cell side in an image of a `width` x `height` solution: [`CELL_PIXELS`], fewer on
/// grids whose longer side would pass [`MAX_IMAGE_SIDE`] pixels, and at least one.
pub fn cell_pixels(width: usize, height: usize) -> usize {
    (MAX_IMAGE_SIDE / width.max(height).max(1)).clamp(1, CELL_PIXELS)
}

/// A solution (palette indices, row-major) as an SVG image: a square of [`cell_pixels`] per
/// cell, each run of one colour along a row drawn as one rectangle, the background drawn once
/// behind them all. A palette index without a colour in `colors` is drawn grey.
pub fn svg_image(width: usize, height: usize, colors: &[Color], cells: &[u8]) -> String {
    // An index `colors` has no colour for is drawn grey (white for the background).
    let hex = |c: u8, or: &str| {
        colors
            .get(usize::from(c))
            .map_or(or.to_string(), Color::hex)
    };
    let cell = cell_pixels(width, height);
    let (w, h) = (width * cell, height * cell);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>\n",
        hex(0, "#FFFFFF")
    );
    for (row, line) in cells.chunks(width.max(1)).enumerate() {
        let mut start = 0;
        for run in line.chunk_by(|a, b| a == b) {
            let (x, c) = (start * cell, run[0]);
            start += run.len();
            if c != 0 {
                let (y, run_w) = (row * cell, run.len() * cell);
                let fill = hex(c, "#808080");
                let _ = writeln!(
                    out,
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{run_w}\" height=\"{cell}\" fill=\"{fill}\"/>"
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pbm_both_kinds_and_xpm() {
        let p1 = Picture::read_pbm(b"P1\n# c\n3 2\n1 0 1\n0 1 1\n").unwrap();
        assert_eq!((p1.width, p1.height), (3, 2));
        assert_eq!(p1.cells, [1, 0, 1, 0, 1, 1]);
        let p4 = Picture::read_pbm(b"P4\n3 2\n\xa0\x60").unwrap();
        assert_eq!(p4.cells, p1.cells);
        let xpm = b"/* XPM */\nstatic char *x[] = {\n\"2 1 2 1\",\n\". c None\",\n\"r c #FF0000\",\n\"r.\"};\n";
        let x = Picture::read_xpm(xpm).unwrap();
        assert_eq!(x.cells, [1, 0]);
        assert_eq!(x.colors[1].rgb, [255, 0, 0]);
        assert!(Picture::read_pbm(b"P1\n2 2\n1 0 1\n").is_err());
        assert!(Picture::read_pbm(b"GIF89a").is_err());
    }

    /// A header whose size is not a number says which and what it found.
    #[test]
    fn pbm_header_errors_say_what_is_wrong() {
        let cases: [(&[u8], &str); 5] = [
            (
                b"P1\n-2 2\n1 0\n",
                "the header's width `-2` is not a number",
            ),
            (
                b"P1\n2 x2\n1 0\n",
                "the header's height `x2` is not a number",
            ),
            (b"P1 2 2a 1 0", "the header's height `2a` is not a number"),
            (
                b"P1\n2",
                "the header needs a width and a height, found no height",
            ),
            (
                b"P1\n99999999999999999999 2\n",
                "the header's width 99999999999999999999 is too large",
            ),
        ];
        for (bytes, message) in cases {
            let err = Picture::read_pbm(bytes).unwrap_err();
            assert_eq!(err.to_string(), message);
        }
        assert!(Picture::read_pbm(b"P1\n#c\n1 1\n1").is_ok());
    }

    /// Found by reading the code for issue 66: `1 + ncolors + height` overflowed.
    #[test]
    fn xpm_with_a_huge_colour_count_is_refused() {
        let huge = format!(
            "/* XPM */\n\"1 1 {} 1\",\n\". c None\",\n\".\"\n",
            usize::MAX
        );
        let err = Picture::read_xpm(huge.as_bytes()).expect_err("refused");
        assert!(err.to_string().contains("colours"), "{err}");
    }

    /// Found by reading the code for issue 66: a key was cut inside a character.
    #[test]
    fn xpm_with_a_pixel_cut_inside_a_character_is_refused() {
        let split = "/* XPM */\n\"2 1 1 1\",\n\". c None\",\n\"é\"\n";
        let err = Picture::read_xpm(split.as_bytes()).expect_err("refused");
        assert!(err.to_string().contains("ASCII"), "{err}");
    }

    #[test]
    fn the_background_is_white_or_the_most_common_colour() {
        let (red, blue) = ([255, 0, 0, 255], [0, 0, 255, 255]);
        let picture = Picture::from_rgba(3, 1, &[red, blue, blue]).unwrap();
        assert_eq!(picture.cells, [1, 0, 0]);
        assert_eq!(picture.colors[0].hex(), "#0000FF");
        let with_white = Picture::from_rgba(2, 1, &[red, [9, 9, 9, 0]]).unwrap();
        assert_eq!(with_white.cells, [1, 0]);
        assert_eq!(with_white.colors[1].ch, '#');
    }

    #[test]
    fn rgba_pixels_must_fill_the_picture() {
        let white = [255; 4];
        let short = Picture::from_rgba(2, 2, &[white; 3]).unwrap_err();
        assert_eq!(short.to_string(), "3 pixels for a 2x2 picture");
        assert!(Picture::from_rgba(0, 0, &[]).is_err());
    }

    #[test]
    fn samples_of_each_kind_are_pixels() {
        let grey = Picture::from_samples(2, 1, &[0, 255], 1).unwrap();
        assert_eq!(
            (grey.cells.as_slice(), grey.colors[1].hex()),
            ([1, 0].as_slice(), "#000000".into())
        );
        let grey_alpha = Picture::from_samples(2, 1, &[0, 0, 0, 255], 2).unwrap();
        assert_eq!(grey_alpha.cells, [0, 1]);
        let rgb = Picture::from_samples(1, 2, &[255, 0, 0, 255, 255, 255, 7], 3).unwrap();
        assert_eq!(
            (rgb.cells.as_slice(), rgb.colors[1].hex()),
            ([1, 0].as_slice(), "#FF0000".into())
        );
        let rgba = Picture::from_samples(1, 1, &[0, 0, 255, 255], 4).unwrap();
        assert_eq!(rgba.colors[0].hex(), "#0000FF");
        let short = Picture::from_samples(2, 2, &[0; 9], 3).unwrap_err();
        assert_eq!(short.to_string(), "3 pixels for a 2x2 picture");
        assert!(Picture::from_samples(1, 1, &[0; 5], 5).is_err());
    }

    #[test]
    fn svg_draws_cells_without_a_colour_grey() {
        let svg = svg_image(2, 1, &bw_palette(), &[1, 5]);
        assert!(svg.contains("fill=\"#808080\""), "{svg}");
        let bare = svg_image(1, 1, &[], &[0]);
        assert!(bare.contains("fill=\"#FFFFFF\""), "{bare}");
    }

    #[test]
    fn svg_draws_each_coloured_cell() {
        let colors = [
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], 'r'),
        ];
        let svg = svg_image(2, 1, &colors, &[1, 0]);
        assert!(svg.contains("fill=\"#FF0000\""), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 2);
        // A run of one colour along a row is one rectangle.
        let svg = svg_image(3, 2, &colors, &[1, 1, 0, 0, 1, 1]);
        assert_eq!(svg.matches("<rect").count(), 3, "{svg}");
        assert!(svg.contains("width=\"24\" height=\"12\""), "{svg}");
    }

    #[test]
    fn cells_shrink_so_that_no_image_passes_its_longest_side() {
        assert_eq!(cell_pixels(10, 10), CELL_PIXELS);
        assert_eq!(cell_pixels(682, 3), CELL_PIXELS);
        assert_eq!(cell_pixels(1, 683), 11);
        assert_eq!(cell_pixels(4096, 4096), 2);
        assert_eq!(cell_pixels(0, 0), CELL_PIXELS);
        for side in [1, 5, 100, 700, 1000, 4096, 10_000] {
            let cell = cell_pixels(side, 1);
            assert!(cell >= 1 && (side * cell <= MAX_IMAGE_SIDE || cell == 1));
        }
    }

    /// The colours an SVG of [`svg_image`] paints, cell by cell, read back from its
    /// rectangles (the later over the earlier).
    fn painted(svg: &str, width: usize, height: usize, colors: &[Color]) -> Vec<u8> {
        let cell = cell_pixels(width, height);
        let mut cells = vec![0; width * height];
        let number = |rect: &str, name: &str| -> usize {
            rect.split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .map_or(0, |n| n.parse().unwrap_or(0))
        };
        for rect in svg.lines().skip(2).filter(|l| l.starts_with("<rect")) {
            let fill = rect
                .split("fill=\"")
                .nth(1)
                .and_then(|r| r.split('"').next());
            let c = colors.iter().position(|k| Some(k.hex().as_str()) == fill);
            let (x, y) = (number(rect, "x") / cell, number(rect, "y") / cell);
            for dx in 0..number(rect, "width") / cell {
                cells[y * width + x + dx] = u8::try_from(c.unwrap_or(0)).unwrap_or(0);
            }
        }
        cells
    }

    proptest::proptest! {
        #[test]
        fn an_svg_paints_every_cell_its_colour(
            (width, cells) in proptest::strategy::Strategy::prop_flat_map(1usize..9, |w| {
                (proptest::strategy::Just(w), proptest::collection::vec(0u8..3, w..=w * 6))
            }),
        ) {
            let colors = [
                Color::new("white", [255; 3], '.'),
                Color::new("red", [255, 0, 0], 'r'),
                Color::new("blue", [0, 0, 255], 'b'),
            ];
            let height = cells.len() / width;
            let cells = &cells[..width * height];
            let svg = svg_image(width, height, &colors, cells);
            proptest::prop_assert_eq!(painted(&svg, width, height, &colors), cells);
        }
    }

    /// A picture read is as large as it says, and its cells lie in its palette.
    fn read_checked(bytes: &[u8]) {
        for p in [Picture::read_pbm(bytes), Picture::read_xpm(bytes)]
            .into_iter()
            .flatten()
        {
            assert_eq!(p.cells.len(), p.width * p.height);
            assert!(p.cells.iter().all(|&c| usize::from(c) < p.colors.len()));
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::test_strategies::fuzz_cases(500))]

        #[test]
        fn random_pictures_never_panic(
            magic in proptest::sample::select(vec![&b"P1"[..], b"P4", b"/* XPM */"]),
            rest in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        ) {
            read_checked(&[magic, &rest].concat());
        }
    }
}
