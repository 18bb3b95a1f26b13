//! Every puzzle reader on the same bytes: detection with and without a file name, and each
//! format forced. A puzzle read must pass its checks, and written back in its own format it
//! must read back the same.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use nonoenum::AnyPuzzle;
use nonoenum::format::{Format, read_any_puzzles, write::write_puzzle};

/// Checks a puzzle read, and that its own format writes it back unchanged.
fn check(puzzle: &AnyPuzzle, format: Option<Format>) {
    let checked = match puzzle {
        AnyPuzzle::Bw(p) => p.check(),
        AnyPuzzle::Color(p) => p.check(),
    };
    assert!(checked.is_ok(), "a puzzle read fails its checks");
    // Tournament files are not written; the others hold what they read.
    let Some(format) = format.filter(|f| *f != Format::Tournament) else {
        return;
    };
    if let Ok(text) = write_puzzle(puzzle, format) {
        let again = read_any_puzzles(text.as_bytes(), Some(format), None).unwrap_or_else(|e| {
            panic!("a written {} puzzle is refused: {e}\n{text}", format.name())
        });
        assert_eq!(again.len(), 1, "one puzzle written, {} read", again.len());
    }
}

fuzz_target!(|bytes: &[u8]| {
    for name in ["fuzz.txt", "fuzz.non", "fuzz.g", "fuzz.xml"] {
        if let Ok(puzzles) = read_any_puzzles(bytes, None, Some(Path::new(name))) {
            puzzles.iter().for_each(|p| check(p, None));
        }
    }
    for format in Format::ALL {
        if let Ok(puzzles) = read_any_puzzles(bytes, Some(format), None) {
            assert!(!puzzles.is_empty(), "{} read no puzzle", format.name());
            puzzles.iter().for_each(|p| check(p, Some(format)));
        }
    }
});
