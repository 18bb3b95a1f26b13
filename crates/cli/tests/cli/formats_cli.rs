//! The CLI across formats: `convert` round trips between every puzzle format, solutions in
//! every `--to` format, `make` from pictures, and bad files in each format with their line.

use std::path::Path;

use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::common::{BUNDLED, OutputAssertExt, nonoenum, stdout_of};

fn stdout(args: &[&str]) -> String {
    stdout_of(&mut nonoenum(args))
}

/// A solution with each character replaced by the order of its first appearance.
fn shape(text: &str) -> Vec<usize> {
    let mut seen: Vec<char> = Vec::new();
    text.chars()
        .map(|c| match seen.iter().position(|&s| s == c) {
            Some(i) => i,
            None => {
                seen.push(c);
                seen.len() - 1
            }
        })
        .collect()
}

/// The colour values and the clues of a `.g` text.
fn essence(text: &str) -> (Vec<String>, String) {
    let hex = text
        .split_whitespace()
        .filter(|w| w.starts_with('#') && w.len() == 7)
        .map(str::to_string)
        .collect();
    let clues = text
        .split_once(": rows")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (hex, clues)
}

/// A puzzle converted to a format and back to `.g` is the same puzzle as converted directly,
/// and solves to the same picture.
#[test]
fn convert_round_trips_through_every_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    let heart = format!("{BUNDLED}/heart.txt");
    let flag = format!("{BUNDLED}/flag.g");
    let cases: [(&str, &[&str]); 2] = [
        (
            &heart,
            &["plain", "non", "g", "xml", "mk", "nin", "json", "pzl"],
        ),
        (&flag, &["g", "xml", "pzl"]),
    ];
    for (source, formats) in cases {
        let direct = stdout(&["convert", source, "--to", "g", "-"]);
        let solved = stdout(&["solve", "-q", source]);
        for format in formats {
            let path = dir.path().join(format!("p.{format}"));
            let path = path.to_str().expect("UTF-8 path");
            nonoenum(["convert", source, "--to", format, path])
                .assert()
                .success();
            // Titles, colour names and characters are not kept by every format: compare the
            // colour values and the clues.
            let back = stdout(&["convert", path, "--to", "g", "-"]);
            assert_eq!(essence(&back), essence(&direct), "{source} via {format}");
            // The same picture, up to the characters chosen for the colours.
            let again = stdout(&["solve", "-q", path]);
            assert_eq!(shape(&again), shape(&solved), "{source} via {format}");
        }
    }
    nonoenum(["convert", &flag, "--to", "non", "-"])
        .assert()
        .code(2)
        .stderr(contains("non holds black-and-white puzzles only"));
}

#[test]
fn every_output_format_writes_the_solution() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flag = format!("{BUNDLED}/flag.g");
    let dancer = format!("{BUNDLED}/dancer.non");
    assert!(stdout(&["solve", "-q", "--to", "xml", &flag]).contains("|@@****|"));
    assert!(stdout(&["solve", "-q", "--to", "non", &dancer]).contains("goal \""));
    assert!(stdout(&["solve", "-q", "--to", "json", &flag]).contains("\"@@****\""));
    assert!(stdout(&["solve", "-q", "--to", "text", &flag]).starts_with("@@****\n"));
    for format in ["svg", "png"] {
        let out = dir.path().join(format);
        nonoenum(["list", "-q", "--to", format, "--output-dir"])
            .arg(&out)
            .arg(&flag)
            .assert()
            .success();
        let file = out.join(format!("solution-1.{format}"));
        let bytes = std::fs::read(&file).expect("image written");
        match format {
            "svg" => assert!(String::from_utf8_lossy(&bytes).contains("fill=\"#FF0000\"")),
            _ => assert!(bytes.starts_with(b"\x89PNG")),
        }
    }
    // One solution may go to standard output as a picture; several need a file each.
    let png = nonoenum(["solve", "-q", "--to", "png", &flag])
        .output()
        .expect("runs");
    assert!(png.status.success() && png.stdout.starts_with(b"\x89PNG"));
    assert!(stdout(&["solve", "-q", "--to", "svg", &flag]).starts_with("<svg"));
    // A grid 4096 cells wide is drawn 2 pixels a cell, 8192 pixels wide, not 12 pixels a cell.
    let wide = dir.path().join("wide.txt");
    std::fs::write(&wide, format!("1 4096\n4096\n{}", "1\n".repeat(4096))).expect("write");
    let png = nonoenum(["solve", "-q", "--to", "png"]).arg(&wide).output();
    let png = png.expect("runs").stdout;
    let side = |at: usize| {
        png.get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    assert_eq!(
        (side(16), side(20)),
        (Some(8192), Some(2)),
        "the PNG's IHDR size"
    );
    // No solution: no picture, rather than an empty file that nothing reads.
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "2 2\n2\n0\n2\n0\n").expect("write");
    for format in ["svg", "png", "non"] {
        let file = dir.path().join(format!("none.{format}"));
        let args = ["solve", "-q", "--to", format, "-o"];
        nonoenum(args).arg(&file).arg(&none).assert().code(1);
        assert!(!file.exists(), "{format}: no file for no solution");
    }
    let svg = stdout(&["solve", "-q", "--to", "svg", &wide.to_string_lossy()]);
    assert!(
        svg.contains("<rect x=\"0\" y=\"0\" width=\"8192\" height=\"2\""),
        "one rectangle: {svg}"
    );
    nonoenum(["list", "-q", "--to", "svg", &flag])
        .assert()
        .code(2)
        .stderr(contains("--output-dir"));
}

/// `make` on a bundled PBM: the clues are written, and an ambiguous picture's varying cells
/// are shown; a PNG written by `--to png` makes a puzzle with the same clues.
#[test]
fn make_reports_uniqueness_and_varying_cells() {
    let dir = tempfile::tempdir().expect("temp dir");
    let diagonal = dir.path().join("d.pbm");
    std::fs::write(&diagonal, "P1\n2 2\n1 0\n0 1\n").expect("write");
    // Not unique is an answer, not a failure: exit code 0, the report on standard error (the
    // puzzle is on standard output).
    let made = nonoenum(["make"])
        .arg(&diagonal)
        .assert()
        .code(0)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&made.stdout).starts_with("nonoenum puzzle"));
    let text = String::from_utf8_lossy(&made.stderr);
    assert!(
        text.contains("not unique (2 solutions); 4 cells vary"),
        "{text}"
    );
    assert!(text.ends_with("??\n??\n"), "{text}");
    let arrow = dir.path().join("a.pbm");
    std::fs::write(&arrow, "P1\n3 2\n1 1 1\n0 1 0\n").expect("write");
    let puzzle = dir.path().join("a.non");
    let out = nonoenum(["make", "--to", "non", "-o"])
        .arg(&puzzle)
        .arg(&arrow)
        .assert()
        .success()
        .stdout("")
        .get_output()
        .stderr
        .clone();
    assert!(String::from_utf8_lossy(&out).contains("unique"));
    let solved = stdout(&["solve", "-q", puzzle.to_str().expect("UTF-8")]);
    assert_eq!(solved, "###\n.#.\nunique\n");
    nonoenum(["make"])
        .arg(&puzzle)
        .assert()
        .code(2)
        .stderr(contains("not a PBM (P1/P4), PNG or XPM image"));
}

/// The shared corpus' PBM pictures: `make` decides each (skips without the corpus).
/// A PNG of a palette of white and red whose pixel takes index 5 is refused, not read with a
/// black made up for it; a red picture's puzzle keeps its red, and `convert` to a format
/// without colours (`convert` or `make`) says it drops them.
#[test]
fn make_refuses_an_index_past_the_palette_and_keeps_red() {
    let dir = tempfile::tempdir().expect("temp dir");
    let indexed = |pixels: &[u8]| {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 2, 1);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(vec![255, 255, 255, 255, 0, 0]);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(pixels).expect("pixels");
        drop(writer);
        bytes
    };
    let (bad, red) = (dir.path().join("bad.png"), dir.path().join("red.png"));
    std::fs::write(&bad, indexed(&[1, 5])).expect("written");
    std::fs::write(&red, indexed(&[1, 0])).expect("written");
    let needle = "a pixel's palette index is past the palette";
    crate::common::assert_bad_input(&["make", bad.to_str().expect("path")], &[needle]);
    let g = stdout(&["make", "-q", red.to_str().expect("path")]);
    assert!(g.contains("#FF0000"), "{g}");
    let g_file = dir.path().join("red.g");
    std::fs::write(&g_file, &g).expect("written");
    let _ = nonoenum(["convert", "--to", "non", g_file.to_str().expect("path")])
        .assert()
        .code(0)
        .stderr(contains("non has no place for the colours"));
    // `make` says so too; the goal it adds is the picture itself, and a format without one
    // loses nothing the user gave.
    let red = red.to_str().expect("path");
    let dropped = contains("has no place for");
    let _ = nonoenum(["make", "--to", "non", red])
        .assert()
        .code(0)
        .stderr(contains("non has no place for the colours: dropped\n").and(contains("unique")));
    let _ = nonoenum(["make", red])
        .assert()
        .code(0)
        .stderr(dropped.not());
}

/// A PNG file of one IHDR (the given size, bit depth and colour type), an IDAT of `rows` and
/// an IEND, each chunk with its CRC, valid or not as the header's fields are.
fn raw_png(size: u32, depth: u8, color_type: u8, rows: &[u8]) -> Vec<u8> {
    let crc = |bytes: &[u8]| {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
            }
        }
        !crc
    };
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = [size.to_be_bytes(), size.to_be_bytes()].concat();
    ihdr.extend([depth, color_type, 0, 0, 0]);
    // Stored (uncompressed) deflate blocks in a zlib stream: rows of at most 65,535 bytes.
    let mut idat = vec![0x78, 0x01, 1];
    let len = u16::try_from(rows.len()).expect("short rows");
    idat.extend(len.to_le_bytes().into_iter().chain((!len).to_le_bytes()));
    idat.extend(rows);
    let adler = rows.iter().fold((1u32, 0u32), |(a, b), &x| {
        let a = (a + u32::from(x)) % 65_521;
        (a, (b + a) % 65_521)
    });
    idat.extend(((adler.1 << 16) | adler.0).to_be_bytes());
    for (kind, data) in [(&b"IHDR"[..], ihdr), (b"IDAT", idat), (b"IEND", vec![])] {
        png.extend(u32::try_from(data.len()).expect("short").to_be_bytes());
        let chunk = [kind, &data].concat();
        png.extend(&chunk);
        png.extend(crc(&chunk).to_be_bytes());
    }
    png
}

#[test]
fn make_names_what_is_wrong_with_a_png() {
    let dir = tempfile::tempdir().expect("temp dir");
    let grey = raw_png(2, 8, 0, &[0, 0, 255, 0, 255, 0]);
    let cases = [
        ("valid.png", grey.clone(), None),
        (
            "empty.png",
            raw_png(0, 8, 0, &[]),
            Some("invalid image dimensions"),
        ),
        (
            "depth3.png",
            raw_png(2, 3, 0, &[0; 4]),
            Some("invalid bit depth 3"),
        ),
        (
            "noplte.png",
            raw_png(2, 8, 3, &[0; 6]),
            Some("missing palette of indexed image"),
        ),
        (
            "cut.png",
            grey[..grey.len() - 20].to_vec(),
            Some("the data is damaged or cut short"),
        ),
    ];
    for (name, bytes, wrong) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("written");
        let path = path.to_str().expect("path");
        match wrong {
            None => {
                assert!(stdout(&["make", "-q", path]).contains(": rows\n1a\n1a\n: columns\n1a\n1a"))
            }
            Some(wrong) => crate::common::assert_bad_input(&["make", path], &[name, wrong]),
        }
    }
}

#[test]
fn make_on_the_corpus_pictures() {
    let raw = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/puzzles/picross-solver/inputs/raw");
    let raw = std::env::var_os("NONOENUM_CORPUS")
        .map_or(raw, |c| Path::new(&c).join("picross-solver/inputs/raw"));
    if !raw.is_dir() {
        eprintln!("skipping: {} is missing", raw.display());
        return;
    }
    for (name, unique) in [
        ("test.pbm", true),
        ("moss-60x60-bw-2.pbm", true),
        ("moss-60x60-bw-1.pbm", false),
    ] {
        let assert = nonoenum(["make"]).arg(raw.join(name)).assert().success();
        let out = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
        assert_eq!(out.contains(": unique"), unique, "{name}: {out}");
    }
}

/// Bad files of the new formats name the file and line.
#[test]
fn bad_files_name_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        (
            "bad.nin",
            "3 2\n1 1\n3\n2\nx\n2\n",
            "bad.nin:5: `x` is not a number",
        ),
        (
            "bad.mk",
            "2 3\n1 1\n3\n#\n2\n1\n",
            "bad.mk:7: expected column clue 3 of 3, found end of file",
        ),
        (
            "bad.json",
            "{\n \"columns\": [[1], [\"x\"]],\n \"rows\": [[1]]\n}\n",
            "bad.json:2: \"columns\" clue 2 is not a list",
        ),
        (
            "bad.pzl",
            "1\n#ff0000\n1 1\n1 1 0 0 255\n1 1 255 0 0\n",
            "bad.pzl:4: colour 0 0 255 is not declared",
        ),
        (
            "bad.xml",
            "<puzzleset>\n<puzzle>\n<clues type=\"rows\">\n<line><count>1</count></line>\n</clues>\n</puzzle>\n</puzzleset>\n",
            "bad.xml:2: a puzzle needs <clues type=\"rows\">",
        ),
    ];
    for (name, text, message) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let out = nonoenum(["count", "-q"])
            .arg(&path)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        assert!(err.contains(message), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}
