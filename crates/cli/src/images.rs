//! Pictures in and out: reading PBM, PNG and XPM images into palette indices (for `make`), and
//! drawing solutions as SVG or PNG (for `--to svg|png`).

use anyhow::{Context, bail};
use nonoenum::Color;

/// A picture: a palette (index 0 the background) and row-major palette indices.
pub(crate) struct Picture {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) colors: Vec<Color>,
    pub(crate) cells: Vec<u8>,
}

/// The most colours a picture may have, the background included.
const MAX_COLORS: usize = nonoenum::MAX_COLORS;
/// The largest picture side accepted.
const MAX_SIDE: usize = nonoenum::MAX_LINE_LEN;

/// Reads a PBM (`P1` or `P4`), PNG or XPM image, told apart by its first bytes.
pub(crate) fn read_image(bytes: &[u8], name: &str) -> anyhow::Result<Picture> {
    if bytes.starts_with(b"P1") || bytes.starts_with(b"P4") {
        read_pbm(bytes).with_context(|| format!("{name}: bad PBM image"))
    } else if bytes.starts_with(b"\x89PNG") {
        read_png(bytes).with_context(|| format!("{name}: bad PNG image"))
    } else if bytes.starts_with(b"/* XPM */") {
        read_xpm(bytes).with_context(|| format!("{name}: bad XPM image"))
    } else {
        bail!("{name}: not a PBM (P1/P4), PNG or XPM image")
    }
}

fn check_side(width: usize, height: usize) -> anyhow::Result<()> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        bail!("size {width}x{height} is out of range (1 to {MAX_SIDE} pixels a side)");
    }
    Ok(())
}

/// PBM: `P1` (ASCII `0`/`1`) or `P4` (packed bits), `#` comments in the header; 1 is black.
fn read_pbm(bytes: &[u8]) -> anyhow::Result<Picture> {
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
        let text = std::str::from_utf8(&bytes[start..pos]).unwrap_or_default();
        let n: usize = text
            .parse()
            .context("the header needs a width and a height")?;
        header.push(n);
    }
    let (width, height) = (header[0], header[1]);
    check_side(width, height)?;
    let mut cells = Vec::with_capacity(width * height);
    if bytes.starts_with(b"P1") {
        for &b in &bytes[pos..] {
            match b {
                b'0' | b'1' => cells.push(b - b'0'),
                b'#' => bail!("comments among the pixels are not supported"),
                _ if b.is_ascii_whitespace() => {}
                _ => bail!("pixel `{}` is not 0 or 1", char::from(b)),
            }
        }
    } else {
        let row_bytes = width.div_ceil(8);
        let data = bytes.get(pos + 1..).unwrap_or_default();
        if data.len() < row_bytes * height {
            bail!(
                "{} bytes of pixels, expected {}",
                data.len(),
                row_bytes * height
            );
        }
        for r in 0..height {
            for c in 0..width {
                cells.push(data[r * row_bytes + c / 8] >> (7 - c % 8) & 1);
            }
        }
    }
    if cells.len() < width * height {
        bail!("{} pixels, expected {}", cells.len(), width * height);
    }
    cells.truncate(width * height);
    Ok(Picture {
        width,
        height,
        colors: nonoenum::bw_palette(),
        cells,
    })
}

/// Turns pixels (RGBA) into a palette: the background is transparent or white if any pixel
/// is, else the most common colour; the others in order of first appearance.
fn palette_of(width: usize, height: usize, pixels: &[[u8; 4]]) -> anyhow::Result<Picture> {
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
        match seen.iter_mut().find(|(c, _)| *c == k) {
            Some((_, n)) => *n += 1,
            None => {
                if seen.len() == MAX_COLORS {
                    bail!("more than {MAX_COLORS} colours (reduce the palette)");
                }
                seen.push((k, 1));
            }
        }
    }
    let background = seen
        .iter()
        .position(|(c, _)| *c == [255, 255, 255])
        .or_else(|| (0..seen.len()).max_by_key(|&i| seen[i].1))
        .unwrap_or(0);
    let mut order: Vec<[u8; 3]> = vec![seen[background].0];
    order.extend(
        seen.iter()
            .map(|(c, _)| *c)
            .filter(|c| *c != seen[background].0),
    );
    let letters = "#abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let colors = order
        .iter()
        .enumerate()
        .map(|(i, &rgb)| {
            let [r, g, b] = rgb;
            let ch = if i == 0 {
                '.'
            } else {
                letters.chars().nth(i - 1).unwrap_or('?')
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

fn read_png(bytes: &[u8]) -> anyhow::Result<Picture> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info()?;
    let (width, height) = (reader.info().width as usize, reader.info().height as usize);
    check_side(width, height)?;
    let mut buf = vec![0; reader.output_buffer_size().context("image too large")?];
    let info = reader.next_frame(&mut buf)?;
    let data = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let pixels: Vec<[u8; 4]> = data
        .chunks(channels)
        .map(|p| match p {
            [g] => [*g, *g, *g, 255],
            [g, a] => [*g, *g, *g, *a],
            [r, g, b] => [*r, *g, *b, 255],
            [r, g, b, a] => [*r, *g, *b, *a],
            _ => [255, 255, 255, 255],
        })
        .collect();
    if pixels.len() < width * height {
        bail!("truncated pixel data");
    }
    palette_of(width, height, &pixels[..width * height])
}

/// XPM 3: the quoted strings of a C array: `"W H NCOLORS CPP"`, colour lines
/// (`"ab c #RRGGBB"` or `c None`), then the pixel rows.
fn read_xpm(bytes: &[u8]) -> anyhow::Result<Picture> {
    let text = std::str::from_utf8(bytes).context("not UTF-8 text")?;
    let strings: Vec<&str> = text
        .split('"')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s)
        .collect();
    let header: Vec<usize> = strings
        .first()
        .context("no values string")?
        .split_whitespace()
        .take(4)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .context("the values string needs width, height, colours and characters per pixel")?;
    let [width, height, ncolors, cpp] = header[..] else {
        bail!("the values string needs 4 numbers");
    };
    check_side(width, height)?;
    // Checked: a huge colour count must not overflow.
    let needed = ncolors.checked_add(height).and_then(|n| n.checked_add(1));
    if cpp == 0 || cpp > 4 || needed.is_none_or(|n| strings.len() < n) {
        bail!("expected {ncolors} colours and {height} rows of pixels");
    }
    let mut keys: Vec<(&str, [u8; 4])> = Vec::new();
    for line in &strings[1..=ncolors] {
        let key = line
            .get(..cpp)
            .context("a colour line shorter than its key")?;
        let words: Vec<&str> = line[cpp..].split_whitespace().collect();
        let value = words
            .windows(2)
            .find(|w| w[0] == "c")
            .map(|w| w[1])
            .context("a colour line without a `c` value")?;
        let rgba = if value.eq_ignore_ascii_case("none") {
            [255, 255, 255, 0]
        } else {
            let hex = value.trim_start_matches('#');
            let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("zz"), 16);
            match (hex.len(), byte(0), byte(2), byte(4)) {
                (6, Ok(r), Ok(g), Ok(b)) => [r, g, b, 255],
                _ => bail!("colour `{value}` is not #RRGGBB or None"),
            }
        };
        keys.push((key, rgba));
    }
    let mut pixels = Vec::with_capacity(width * height);
    for row in &strings[1 + ncolors..1 + ncolors + height] {
        if row.len() != width * cpp {
            bail!(
                "a row of {} characters, expected {}",
                row.len(),
                width * cpp
            );
        }
        for c in 0..width {
            // A character of several bytes may straddle two pixels' keys.
            let key = row
                .get(c * cpp..(c + 1) * cpp)
                .with_context(|| format!("pixel {} is not {cpp} ASCII characters", c + 1))?;
            let rgba = keys
                .iter()
                .find(|(k, _)| *k == key)
                .with_context(|| format!("pixel `{key}` has no colour"))?
                .1;
            pixels.push(rgba);
        }
    }
    palette_of(width, height, &pixels)
}

/// Pixels per cell in the images of solutions.
const CELL: usize = 12;

/// A solution as an SVG image: one square per cell, the background left white.
pub(crate) fn svg(width: usize, height: usize, colors: &[Color], cells: &[u8]) -> String {
    let (w, h) = (width * CELL, height * CELL);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>\n",
        colors[0].hex()
    );
    for (i, &c) in cells.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let (x, y) = (i % width * CELL, i / width * CELL);
        let fill = colors[usize::from(c)].hex();
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>\n"
        ));
    }
    out.push_str("</svg>\n");
    out
}

/// A solution as a PNG image (RGB, `CELL` pixels a cell).
pub(crate) fn png(
    width: usize,
    height: usize,
    colors: &[Color],
    cells: &[u8],
) -> anyhow::Result<Vec<u8>> {
    let (w, h) = (width * CELL, height * CELL);
    let mut data = Vec::with_capacity(w * h * 3);
    for y in 0..h {
        for x in 0..w {
            let c = cells[y / CELL * width + x / CELL];
            data.extend_from_slice(&colors[usize::from(c)].rgb);
        }
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, u32::try_from(w)?, u32::try_from(h)?);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&data)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pbm_both_kinds_and_xpm() {
        let p1 = read_image(b"P1\n# c\n3 2\n1 0 1\n0 1 1\n", "a").unwrap();
        assert_eq!((p1.width, p1.height), (3, 2));
        assert_eq!(p1.cells, [1, 0, 1, 0, 1, 1]);
        let p4 = read_image(b"P4\n3 2\n\xa0\x60", "b").unwrap();
        assert_eq!(p4.cells, p1.cells);
        let xpm = b"/* XPM */\nstatic char *x[] = {\n\"2 1 2 1\",\n\". c None\",\n\"r c #FF0000\",\n\"r.\"};\n";
        let x = read_image(xpm, "c").unwrap();
        assert_eq!(x.cells, [1, 0]);
        assert_eq!(x.colors[1].rgb, [255, 0, 0]);
        assert!(read_image(b"P1\n2 2\n1 0 1\n", "d").is_err());
        assert!(read_image(b"GIF89a", "e").is_err());
    }

    /// Found by reading the code for issue 66: `1 + ncolors + height` overflowed.
    #[test]
    fn xpm_with_a_huge_colour_count_is_refused() {
        let huge = format!(
            "/* XPM */\n\"1 1 {} 1\",\n\". c None\",\n\".\"\n",
            usize::MAX
        );
        let err = read_image(huge.as_bytes(), "h").err().expect("refused");
        assert!(format!("{err:#}").contains("colours"), "{err:#}");
    }

    /// Found by reading the code for issue 66: a key was cut inside a character.
    #[test]
    fn xpm_with_a_pixel_cut_inside_a_character_is_refused() {
        let split = "/* XPM */\n\"2 1 1 1\",\n\". c None\",\n\"é\"\n";
        let err = read_image(split.as_bytes(), "s").err().expect("refused");
        assert!(format!("{err:#}").contains("ASCII"), "{err:#}");
    }

    #[test]
    fn png_written_reads_back() {
        let colors = vec![
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], 'r'),
        ];
        let bytes = png(2, 1, &colors, &[1, 0]).unwrap();
        let back = read_image(&bytes, "p").unwrap();
        assert_eq!((back.width, back.height), (2 * CELL, CELL));
        assert_eq!(back.cells[0], 1);
        assert_eq!(back.cells[CELL], 0);
        assert!(svg(2, 1, &colors, &[1, 0]).contains("#FF0000"));
    }

    /// Valid pictures of each kind, for the fuzzing below to edit.
    fn seeds() -> Vec<Vec<u8>> {
        let colors = vec![
            Color::new("white", [255; 3], '.'),
            Color::new("red", [255, 0, 0], 'r'),
        ];
        vec![
            b"P1\n# c\n3 2\n1 0 1\n0 1 1\n".to_vec(),
            b"P4\n3 2\n\xa0\x60".to_vec(),
            b"/* XPM */\n{\"2 1 2 1\",\n\". c None\",\n\"r c #FF0000\",\n\"r.\"};\n".to_vec(),
            png(1, 1, &colors, &[1]).unwrap(),
        ]
    }

    /// A picture read is as large as it says, and its cells lie in its palette.
    fn read_checked(bytes: &[u8]) {
        if let Ok(p) = read_image(bytes, "fuzz") {
            assert_eq!(p.cells.len(), p.width * p.height);
            assert!(p.cells.iter().all(|&c| usize::from(c) < p.colors.len()));
        }
    }

    proptest::proptest! {
        #![proptest_config(crate::fuzz_cases::cases(500))]

        #[test]
        fn edited_pictures_never_panic(
            bytes in crate::fuzz_cases::edited_one_of(seeds()),
        ) {
            read_checked(&bytes);
        }

        #[test]
        fn random_pictures_never_panic(
            magic in proptest::sample::select(vec![&b"P1"[..], b"P4", b"\x89PNG", b"/* XPM */"]),
            rest in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
        ) {
            read_checked(&[magic, &rest].concat());
        }
    }
}
