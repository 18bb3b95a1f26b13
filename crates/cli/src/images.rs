//! PNG pictures in and out: decoded into the library's [`Picture`] (which reads PBM and XPM
//! itself) for `make`, and solutions drawn for `--to png` (the library draws SVG).

use anyhow::{Context, bail};
use std::io::Write as _;

use nonoenum::{Color, Picture, cell_pixels};

/// Reads a PBM (`P1` or `P4`), PNG or XPM image, told apart by its first bytes.
pub(crate) fn read_image(bytes: &[u8], name: &str) -> anyhow::Result<Picture> {
    if bytes.starts_with(b"P1") || bytes.starts_with(b"P4") {
        Picture::read_pbm(bytes).with_context(|| format!("{name}: bad PBM image"))
    } else if bytes.starts_with(b"\x89PNG") {
        read_png(bytes).with_context(|| format!("{name}: bad PNG image"))
    } else if bytes.starts_with(b"/* XPM */") {
        Picture::read_xpm(bytes).with_context(|| format!("{name}: bad XPM image"))
    } else {
        bail!("{name}: not a PBM (P1/P4), PNG or XPM image")
    }
}

fn read_png(bytes: &[u8]) -> anyhow::Result<Picture> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(png_error)?;
    let (width, height) = (reader.info().width as usize, reader.info().height as usize);
    // The decoder draws a palette index past the palette black: refused, unless black is in it.
    let indexed = reader.info().color_type == png::ColorType::Indexed;
    let no_black = indexed
        && (reader.info().palette.as_ref()).is_some_and(|p| !p.chunks(3).any(|c| c == [0; 3]));
    Picture::check_size(width, height)?;
    let mut buf = vec![0; reader.output_buffer_size().context("image too large")?];
    let info = reader.next_frame(&mut buf).map_err(png_error)?;
    let (data, channels) = (&buf[..info.buffer_size()], info.color_type.samples());
    if no_black && data.chunks(channels).any(|p| p.get(..3) == Some(&[0; 3])) {
        bail!("a pixel's palette index is past the palette");
    }
    Ok(Picture::from_samples(width, height, data, channels)?)
}

/// The decoder's reason where it is in plain words, else that the data is damaged.
fn png_error(e: png::DecodingError) -> anyhow::Error {
    let said = e.to_string();
    let said = said
        .get(..1)
        .map(|c| c.to_lowercase() + said[1..].trim_end_matches('.'));
    match said {
        Some(said) if matches!(e, png::DecodingError::Format(_)) && !said.contains('{') => {
            anyhow::anyhow!(said)
        }
        _ => anyhow::anyhow!("the data is damaged or cut short"),
    }
}

/// A solution as a PNG image (RGB, [`cell_pixels`] a cell), encoded a row at a time.
pub(crate) fn png(
    width: usize,
    height: usize,
    colors: &[Color],
    cells: &[u8],
) -> anyhow::Result<Vec<u8>> {
    let cell = cell_pixels(width, height);
    let (w, h) = (u32::try_from(width * cell)?, u32::try_from(height * cell)?);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut header = encoder.write_header()?;
    let mut writer = header.stream_writer()?;
    for row in cells.chunks(width.max(1)) {
        let pixels: Vec<u8> = (row.iter())
            .flat_map(|&c| std::iter::repeat_n(colors[usize::from(c)].rgb, cell).flatten())
            .collect();
        for _ in 0..cell {
            writer.write_all(&pixels)?;
        }
    }
    writer.finish()?;
    header.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonoenum::CELL_PIXELS as CELL;

    #[test]
    fn reads_each_kind_by_its_first_bytes() {
        let p1 = read_image(b"P1\n3 2\n1 0 1\n0 1 1\n", "a").unwrap();
        assert_eq!(p1.cells, [1, 0, 1, 0, 1, 1]);
        let xpm = b"/* XPM */\n\"2 1 2 1\",\n\". c None\",\n\"r c #FF0000\",\n\"r.\"\n";
        assert_eq!(read_image(xpm, "c").unwrap().cells, [1, 0]);
        let err = read_image(b"P1\n2 2\n1 0 1\n", "d").expect_err("refused");
        assert_eq!(format!("{err:#}"), "d: bad PBM image: 3 pixels, expected 4");
        assert!(read_image(b"GIF89a", "e").is_err());
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
