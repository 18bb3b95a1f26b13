//! Tests on the real puzzle files of `../shared/puzzles/` (skipped when it is absent).

use std::path::{Path, PathBuf};

use super::{Format, read_puzzles, tournament};
use crate::puzzle::Puzzle;

/// The files of a corpus folder with an extension, or `None` (after saying so) if it is absent.
fn corpus(folder: &str, extension: &str) -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/puzzles")
        .join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: {} not found", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    Some(files)
}

/// Reads one file with format detection.
fn read(path: &Path) -> Vec<Puzzle> {
    let bytes = std::fs::read(path).expect("readable");
    read_puzzles(&bytes, None, Some(path)).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
}

#[test]
fn plain_counted_puzzles_parse_and_round_trip() {
    let Some(files) = corpus("counted", "txt") else {
        return;
    };
    let mut parsed = 0;
    for path in files.iter().filter(|p| !p.ends_with("gchq2015-givens.txt")) {
        let puzzle = read(path).remove(0);
        assert_eq!(
            Format::detect(Some(path), &super::plain::write(&puzzle)),
            Some(Format::Plain)
        );
        assert_eq!(
            super::plain::parse(&super::plain::write(&puzzle)),
            Ok(puzzle)
        );
        parsed += 1;
    }
    assert_eq!(parsed, 16);
}

#[test]
fn gchq_givens_fit_the_puzzle() {
    let Some(files) = corpus("counted", "txt") else {
        return;
    };
    let find = |name: &str| files.iter().find(|p| p.ends_with(name)).expect("present");
    let mut puzzle = read(find("gchq2015-no-givens.txt")).remove(0);
    let bytes = std::fs::read(find("gchq2015-givens.txt")).expect("readable");
    puzzle.givens = super::read_givens(&bytes).expect("valid");
    assert_eq!(puzzle.givens.len(), 22);
    assert!(puzzle.givens.iter().all(|g| g.filled));
    assert_eq!(puzzle.check(), Ok(()));
}

#[test]
fn survey_non_puzzles_parse_with_their_goal() {
    let Some(files) = corpus("survey/bw-non", "non") else {
        return;
    };
    for path in &files {
        let puzzle = read(path).remove(0);
        assert!(puzzle.goal.is_some(), "{}", path.display());
        assert_eq!(super::non::parse(&super::non::write(&puzzle)), Ok(puzzle));
    }
    assert_eq!(files.len(), 31);
}

#[test]
fn tournament_solutions_match_their_puzzles() {
    let Some(questions) = corpus("tournament/question", "txt") else {
        return;
    };
    let Some(solutions) = corpus("tournament/solution", "txt") else {
        return;
    };
    assert_eq!(questions.len(), 6);
    for (question, solution) in questions.iter().zip(&solutions) {
        let puzzles = read(question);
        let text = std::fs::read_to_string(solution).expect("UTF-8");
        let pictures = tournament::parse_solutions(&text).expect("valid");
        assert_eq!((puzzles.len(), pictures.len()), (1000, 1000));
        for (mut puzzle, (title, cells)) in puzzles.into_iter().zip(pictures) {
            assert_eq!(puzzle.title.as_deref(), Some(title.as_str()));
            assert_eq!((puzzle.height(), puzzle.width()), (25, 25));
            puzzle.goal = Some(cells);
            assert_eq!(puzzle.check(), Ok(()), "{} {title}", question.display());
        }
    }
}

#[test]
fn picross_solver_grids_parse_and_round_trip() {
    let Some(mut files) = corpus("picross-solver/inputs", "txt") else {
        return;
    };
    files.extend(corpus("picross-solver/inputs/picross_ds", "txt").unwrap_or_default());
    let (mut grids, mut read_files) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        let result = read_puzzles(&bytes, None, Some(path));
        if path.ends_with("invalid_input.txt") {
            assert!(result.is_err());
            invalid_grids_fail_each_in_its_way(&String::from_utf8_lossy(&bytes));
            continue;
        }
        let puzzles = result.unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        for puzzle in &puzzles {
            let text = super::picross::write(puzzle);
            assert_eq!(Format::detect(None, &text), Some(Format::Picross));
            assert_eq!(super::picross::parse(&text), Ok(vec![puzzle.clone()]));
        }
        grids += puzzles.len();
        read_files += 1;
    }
    // 15 test patterns, 8 Picross DS puzzles, the example (2 grids) and the dominoes (7).
    assert_eq!((read_files, grids), (25, 32));
}

/// picross-solver's grids broken on purpose, each after a `#` line saying how, read one by
/// one: five are refused, two (which have no solution) are read.
fn invalid_grids_fail_each_in_its_way(text: &str) {
    let verdicts: Vec<String> = text
        .split("\n\n#")
        .map(|grid| match super::picross::parse(&format!("#{grid}")) {
            Ok(_) => "read".to_string(),
            Err(e) => e.to_string(),
        })
        .collect();
    let expected = [
        "row clues fill 153 cells but column clues fill 154",
        "has no ROWS clues",
        "column 1",
        "row 1",
        "read",
        "read",
        "unexpected `GRILL Beaf`",
    ];
    assert_eq!(verdicts.len(), expected.len(), "{verdicts:?}");
    for (verdict, expected) in verdicts.iter().zip(expected) {
        assert!(
            verdict.contains(expected),
            "{verdict} (expected {expected})"
        );
    }
}

#[test]
fn pynogram_and_nonogrid_files_parse() {
    let Some(mut files) = corpus("tsionyx/pynogram", "txt") else {
        return;
    };
    files.extend(corpus("tsionyx/pynogram-history", "txt").unwrap_or_default());
    files.extend(corpus("tsionyx/nonogrid", "toml").unwrap_or_default());
    let files: Vec<_> = (files.into_iter())
        .filter(|p| !p.ends_with("LICENSE-head.txt"))
        .collect();
    let mut colour = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        assert_eq!(
            Format::detect(Some(path), &String::from_utf8_lossy(&bytes)),
            Some(Format::Pynogram)
        );
        let puzzles = super::read_any_puzzles(&bytes, None, Some(path))
            .unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        colour += usize::from(matches!(puzzles[..], [crate::AnyPuzzle::Color(_)]));
    }
    // In colour: the flag of the United Kingdom in both spellings, and the apples.
    assert_eq!((files.len(), colour), (20, 3));
}
