//! The givens readers (black-and-white numbered, plain and colour), and adding what they read
//! to a small puzzle of each kind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nonoenum::AnyPuzzle;
use nonoenum::format::color_givens::{add_color_givens, read_raw_givens};
use nonoenum::format::{Format, add_givens, read_givens, read_numbered_givens, read_puzzles};

/// A 3x3 puzzle: a plus sign.
const PLUS: &[u8] = b"3 3\n1\n3\n1\n1\n3\n1\n";

fuzz_target!(|bytes: &[u8]| {
    let _ = read_givens(bytes);
    let puzzle = read_puzzles(PLUS, Some(Format::Plain), None).expect("the plus")[0].clone();
    if let Ok(givens) = read_numbered_givens(bytes) {
        let mut bw = puzzle.clone();
        if add_givens(&mut bw, &givens).is_ok() {
            assert!(
                bw.check().is_ok(),
                "givens added, the puzzle fails its checks"
            );
        }
    }
    if let Ok(raw) = read_raw_givens(bytes) {
        let mut color = AnyPuzzle::Bw(puzzle).to_color();
        if add_color_givens(&mut color, &raw).is_ok() {
            assert!(
                color.check().is_ok(),
                "givens added, the puzzle fails its checks"
            );
        }
    }
});
