//! Property-based fuzzing of every parser, bounded so that it runs in the test suite: random
//! bytes, and random edits of real files (the bundled puzzles and a few from `../shared` when
//! present), must give a puzzle or an error, never a panic, and a parsed puzzle must pass its
//! own checks. The givens readers and the compact listing reader get the same. A failing
//! input would be kept by proptest in `proptest-regressions/` and replayed first on every run.
//!
//! `NONOENUM_FUZZ_CASES=N` runs N cases a target instead of the suite's few thousand:
//! `NONOENUM_FUZZ_CASES=1000000 cargo test --release --test fuzz_parsers` runs for minutes.

use std::path::Path;

use nonoenum::format::color_givens::read_raw_givens;
use nonoenum::format::{Format, read_givens, read_numbered_givens, read_puzzles};
use nonoenum::{ListingItem, read_listing};
use proptest::prelude::*;

/// Cases a target: `NONOENUM_FUZZ_CASES`, or `default` (what the suite runs).
fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("NONOENUM_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(cases)
}

/// The seeds: every bundled puzzle, and a few shared corpus files of other shapes if present.
fn seeds() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("puzzles"))
        .expect("puzzles/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "non"))
        .collect();
    for shared in [
        "../shared/puzzles/survey/bw-non/webpbn-00436.non",
        "../shared/puzzles/counted/gchq2015-givens.txt",
        "../shared/puzzles/picross-solver/inputs/invalid_input.txt",
        "../shared/puzzles/tsionyx/nonogrid/UK.toml",
        "../shared/puzzles/tsionyx/pynogram/apples.txt",
    ] {
        let path = root.join(shared);
        if path.exists() {
            files.push(path);
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(&p).expect("read seed"),
            )
        })
        .collect()
}

/// Parses with detection (with and without the file name) and with every format forced.
fn parse_every_way(bytes: &[u8], name: &str) {
    let path = Path::new(name);
    let mut results = vec![
        read_puzzles(bytes, None, Some(path)),
        read_puzzles(bytes, None, None),
    ];
    for format in Format::ALL {
        results.push(read_puzzles(bytes, Some(format), None));
    }
    for puzzles in results.into_iter().flatten() {
        assert!(!puzzles.is_empty());
        for puzzle in puzzles {
            assert!(puzzle.check().is_ok(), "a parsed puzzle fails its checks");
        }
    }
    read_every_givens(bytes);
}

/// The givens readers: black and white, numbered, and colour.
fn read_every_givens(bytes: &[u8]) {
    let _ = read_givens(bytes);
    let _ = read_numbered_givens(bytes);
    let _ = read_raw_givens(bytes);
}

/// Reads a compact listing to its end: each solution holds its header's cells.
fn read_whole_listing(bytes: &[u8]) {
    let mut listing = read_listing(bytes);
    while let Some(item) = listing.next() {
        if let Ok(ListingItem::Solution(solution)) = item {
            let header = listing.header().expect("a solution follows a header");
            assert_eq!(solution.cells().len(), header.rows * header.cols);
            let _ = solution.rows();
        }
    }
}

/// Two compact listings one after the other, and a `result` line.
const LISTING: &str = concat!(
    r#"{"type":"compact","format":"nonoenum-compact/1","rows":2,"cols":2,"bits":1,"#,
    r##""palette":[".","#"]}"##,
    "\nkA\nYA\n\n",
    r#"{"type":"compact","format":"nonoenum-compact/1","rows":1,"cols":3,"bits":2,"#,
    r#""palette":[".","a","b"],"label":"x"}"#,
    "\nGA\n",
    r#"{"type":"result","solutions":2}"#,
    "\n"
);

/// Givens files: black and white, and colour.
const GIVENS: [&str; 2] = [
    "# a comment\n1 1\n2 2 #\n3 1 .\n2 3 1\n1 3 0\n",
    "1 1 black\n2 2 b\n3 3 .\n2 1 background\n",
];

/// An edit of a byte string: insert, delete or replace bytes at a position.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Replace(usize, u8),
    /// Repeat a slice many times (long lines, many lines).
    Repeat(usize, usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    // Bytes that matter to the parsers, and a few that do not.
    let byte = prop_oneof![
        Just(b'\n'),
        Just(b'\r'),
        Just(b' '),
        Just(b'\t'),
        Just(b','),
        Just(b'#'),
        Just(b'$'),
        Just(b'"'),
        Just(b'0'),
        Just(b'9'),
        Just(b'-'),
        Just(0xff),
        Just(0xc3),
        any::<u8>()
    ];
    prop_oneof![
        (
            any::<usize>(),
            proptest::collection::vec(byte.clone(), 1..8)
        )
            .prop_map(|(at, b)| Edit::Insert(at, b)),
        (any::<usize>(), 1usize..20).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), byte).prop_map(|(at, b)| Edit::Replace(at, b)),
        (any::<usize>(), 1usize..12, 1usize..300).prop_map(|(at, n, k)| Edit::Repeat(at, n, k)),
    ]
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let len = bytes.len().max(1);
    match edit {
        Edit::Insert(at, b) => {
            let at = at % (bytes.len() + 1);
            let _ = bytes.splice(at..at, b.iter().copied());
        }
        Edit::Delete(at, n) => {
            let at = at % len;
            let end = (at + n).min(bytes.len());
            if at < end {
                let _ = bytes.drain(at..end);
            }
        }
        Edit::Replace(at, b) => {
            if !bytes.is_empty() {
                bytes[at % len] = *b;
            }
        }
        Edit::Repeat(at, n, k) => {
            let at = at % len;
            let end = (at + n).min(bytes.len());
            let piece = bytes[at.min(end)..end].to_vec();
            for _ in 0..*k {
                let _ = bytes.splice(end..end, piece.iter().copied());
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(3000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        parse_every_way(&bytes, "random.txt");
        parse_every_way(&bytes, "random.non");
    }

    #[test]
    fn edited_real_files_never_panic(
        which in any::<usize>(),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let seeds = seeds();
        let (name, original) = &seeds[which % seeds.len()];
        let mut bytes = original.clone();
        for e in &edits {
            apply(&mut bytes, e);
        }
        parse_every_way(&bytes, name);
    }

    #[test]
    fn edited_givens_never_panic(
        which in any::<bool>(),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let mut bytes = GIVENS[usize::from(which)].as_bytes().to_vec();
        for e in &edits {
            apply(&mut bytes, e);
        }
        read_every_givens(&bytes);
    }

    #[test]
    fn random_listings_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_whole_listing(&bytes);
    }

    #[test]
    fn edited_listings_never_panic(edits in proptest::collection::vec(edit(), 1..6)) {
        let mut bytes = LISTING.as_bytes().to_vec();
        for e in &edits {
            apply(&mut bytes, e);
        }
        read_whole_listing(&bytes);
    }
}

/// Inputs that must be refused quickly, without allocating for what they declare.
#[test]
fn hostile_inputs_are_refused() {
    let cases: [&[u8]; 9] = [
        b"1000000000 1000000000\n",
        b"2 2\n1000000000000000000\n1\n1\n1\n",
        b"width 1000000000\nheight 1000000000\nrows\n",
        b"$1\n99999999999999999999\t1\n",
        b"\xff\xfe\x00garbage\n",
        b"2 2\n1\n1\n1\n1\ngivens\n18446744073709551616 1\n",
        b"2 2\n1\n1\n1\n1\ngivens\n3 3\n",
        b"",
        b"# only a comment\n\n\n",
    ];
    for bytes in cases {
        let start = std::time::Instant::now();
        for format in [
            None,
            Some(Format::Plain),
            Some(Format::Non),
            Some(Format::Tournament),
        ] {
            assert!(
                read_puzzles(bytes, format, None).is_err(),
                "{bytes:?} as {format:?}"
            );
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "{bytes:?} is slow"
        );
    }
}

/// The fuzzing's seeds are valid, so that its edits start from files that read.
#[test]
fn the_seeds_read() {
    let items: Vec<_> = read_listing(LISTING.as_bytes()).collect();
    assert_eq!(items.len(), 6);
    assert!(items.iter().all(Result::is_ok), "{items:?}");
    assert_eq!(read_numbered_givens(GIVENS[0].as_bytes()).unwrap().len(), 5);
    assert_eq!(read_raw_givens(GIVENS[1].as_bytes()).unwrap().len(), 4);
}
