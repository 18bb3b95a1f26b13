//! Colour puzzles end to end: the `.g` and webpbn XML readers on the shared corpus, colour
//! givens, and the CLI on colour files.
//!
//! Tests that read `../shared` skip (with a message on standard error) where it is missing.

use std::path::{Path, PathBuf};

use nonoenum::format::read_any_puzzles;
use nonoenum::{AnyPuzzle, ColorSolver, Probing, Solver, SolverOptions};

use crate::common::{OutputAssertExt, assert_bad_input, nonoenum};

/// The shared corpus beside the repository (`NONOENUM_CORPUS` overrides it, for worktrees
/// elsewhere).
fn shared_root() -> PathBuf {
    std::env::var_os("NONOENUM_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/puzzles"),
        PathBuf::from,
    )
}
const FLAG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles/flag.g");

fn shared_dir(relative: &str) -> Option<PathBuf> {
    let path = shared_root().join(relative);
    if !path.is_dir() {
        eprintln!(
            "skipping: the shared corpus folder {} is missing",
            path.display()
        );
        return None;
    }
    Some(path)
}

fn load(path: &Path) -> Vec<AnyPuzzle> {
    let bytes = std::fs::read(path).expect("readable");
    read_any_puzzles(&bytes, None, Some(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.g` of the survey reads; the colour ones are colour puzzles, the others black and
/// white with the same clues as the survey's `.non` copy.
#[test]
fn survey_g_files_read_and_agree_with_non() {
    let Some(dir) = shared_dir("survey/olsak-g") else {
        return;
    };
    let mut colour = 0;
    for entry in std::fs::read_dir(&dir).expect("listable") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "g") {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let puzzles = load(&path);
        assert_eq!(puzzles.len(), 1);
        match &puzzles[0] {
            AnyPuzzle::Color(p) => {
                assert!(name.contains("color"), "{name}");
                assert!(p.colors.len() >= 3);
                colour += 1;
            }
            AnyPuzzle::Bw(p) => {
                assert!(!name.contains("color"), "{name}");
                let non = shared_root()
                    .join("survey/bw-non")
                    .join(format!("{name}.non"));
                if non.is_file() {
                    let AnyPuzzle::Bw(q) = &load(&non)[0] else {
                        panic!("{name}.non is black and white")
                    };
                    assert_eq!(
                        (&p.row_clues, &p.col_clues),
                        (&q.row_clues, &q.col_clues),
                        "{name}"
                    );
                }
            }
        }
    }
    assert_eq!(colour, 18);
}

/// Olšák's own `.g` examples read (colour or not), and the easy colour ones solve uniquely
/// with the same answer on 1 and 2 threads.
#[test]
fn olsak_examples_read_and_solve() {
    let Some(dir) = shared_dir("olsak") else {
        return;
    };
    for name in [
        "acorn.g",
        "dvekocky.g",
        "oko.g",
        "raketa.g",
        "rose.g",
        "kocka.g",
        "usmev.g",
    ] {
        let path = dir.join(name);
        let puzzles = load(&path);
        let counts: Vec<u64> = [1, 2]
            .iter()
            .map(|&threads| {
                let options = SolverOptions {
                    threads,
                    probing: Probing::Adaptive,
                    ordered: false,
                    restarts: true,
                    engine: Default::default(),
                };
                let outcome = match &puzzles[0] {
                    AnyPuzzle::Bw(p) => Solver::new(p, options).find(2).map(|r| r.1),
                    AnyPuzzle::Color(p) => ColorSolver::new(p, options).find(2).map(|r| r.1),
                };
                outcome.expect("valid").solutions
            })
            .collect();
        assert_eq!(counts[0], counts[1], "{name}");
        assert!(counts[0] >= 1, "{name} has a solution");
    }
}

#[test]
fn solve_prints_colour_solution_and_verdict() {
    nonoenum(["solve", "-q", FLAG])
        .assert()
        .success()
        .stdout("@@****\n@@****\n******\nunique\n");
}

#[test]
fn colour_givens_file_and_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = dir.path().join("g.txt");
    std::fs::write(&good, "1 1 blue\n3 6 red\n").expect("write");
    nonoenum(["count", "-q", FLAG, "--givens"])
        .arg(&good)
        .assert()
        .success()
        .stdout("1\n");
    let contrary = dir.path().join("c.txt");
    // No solution: counted as 0, with the no-solution exit code.
    std::fs::write(&contrary, "# blue where red must be\n3 1 blue\n").expect("write");
    nonoenum(["count", "-q", FLAG, "--givens"])
        .arg(&contrary)
        .assert()
        .code(1)
        .stdout("0\n");
    let bad = dir.path().join("b.txt");
    std::fs::write(&bad, "\n1 1 green\n").expect("write");
    let out = nonoenum(["count", "-q", FLAG, "--givens"])
        .arg(&bad)
        .assert()
        .failure()
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains("b.txt:2: bad given: `green` is not a colour"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_one_colour_file_s_givens_may_name_its_colours() {
    // Read as black and white (one colour besides the background), with the file's colours.
    let dir = tempfile::tempdir().expect("temp dir");
    let puzzle = dir.path().join("red.g");
    let text =
        "#d\n 0:   #FFFFFF   white\n r:*  #FF0000   red\n: rows\n1r\n1r\n: columns\n1r\n1r\n";
    std::fs::write(&puzzle, text).expect("write");
    let (givens, wrong) = (dir.path().join("g.txt"), dir.path().join("w.txt"));
    std::fs::write(&givens, "1 1 red\n1 2 white\n2 2 *\n").expect("write");
    nonoenum(["list", "-q", "--givens"])
        .arg(&givens)
        .arg(&puzzle)
        .assert()
        .success()
        .stdout("#.\n.#\n");
    std::fs::write(&wrong, "1 1 red\n2 2 blue\n").expect("write");
    let (wrong, puzzle) = (wrong.to_string_lossy(), puzzle.to_string_lossy());
    let message =
        "w.txt:2: bad given: `blue` is not a cell value (# 1 filled . 0 empty, or red, white)";
    assert_bad_input(&["count", "-q", "--givens", &wrong, &puzzle], &[message]);
}

#[test]
fn bad_g_file_names_file_and_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.g");
    let text = std::fs::read_to_string(FLAG)
        .expect("flag")
        .replace("2u 4r\n2u", "2u 4r\n2q");
    std::fs::write(&bad, text).expect("write");
    let out = nonoenum(["solve", "-q"])
        .arg(&bad)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(err.contains("bad.g:8: colour `q` is not declared"), "{err}");
}

/// `list --json` prints colour solutions as rows of colour characters.
#[test]
fn json_and_list_work_on_colour() {
    nonoenum(["list", "-q", "--to=jsonl", FLAG])
        .assert()
        .success()
        .stdout(predicates::str::contains("\"@@****\""));
}

/// The other readers on the shared corpus: Olšák `.mk`, Wilk `.nin`, thomasr's JSON and the
/// `.pzl` colour files read, and a few solve with the answer their source gives.
#[test]
fn other_formats_read_from_the_corpus() {
    let Some(root) = shared_dir(".") else {
        return;
    };
    let cases: [(&str, u64); 6] = [
        ("olsak/bird.mk", 1),
        ("jwilk/data000.nin", 1),
        ("thomasr/puzzles/qr.json", 1),
        ("thomasr/test-resources/ambiguousPuzzle.json", 2),
        ("izaron-color/emoji.pzl", 1),
        ("izaron-color/kolobok.pzl", 1),
    ];
    for (name, expected) in cases {
        let puzzles = load(&root.join(name));
        let options = SolverOptions {
            threads: 2,
            probing: Probing::Adaptive,
            ordered: false,
            restarts: true,
            engine: Default::default(),
        };
        let found = match &puzzles[0] {
            AnyPuzzle::Bw(p) => Solver::new(p, options).find(2).map(|r| r.1),
            AnyPuzzle::Color(p) => ColorSolver::new(p, options).find(2).map(|r| r.1),
        };
        assert_eq!(found.expect("valid").solutions, expected, "{name}");
    }
    let bad = std::fs::read(root.join("thomasr/test-resources/invalidPuzzle.json")).expect("file");
    let err = read_any_puzzles(&bad, None, Some(Path::new("x.json"))).expect_err("invalid");
    assert!(
        err.line > 0 && err.to_string().contains("row clues fill"),
        "{err}"
    );
}

/// Checkpoints and split take colour puzzles too (the band puzzles of `checkpoint.rs` and
/// `split_merge.rs` test them at length): the flag's one solution, checkpointed and split.
#[test]
fn checkpoint_and_split_take_colour() {
    let dir = tempfile::tempdir().expect("temp dir");
    let checkpoint = dir.path().join("c.json");
    nonoenum(["count", "-q", "--method", "enumerate", FLAG, "--checkpoint"])
        .arg(&checkpoint)
        .assert()
        .success()
        .stdout("1\n");
    let parts = dir.path().join("parts");
    nonoenum(["split", "-q", FLAG, "-o"])
        .arg(&parts)
        .assert()
        .success();
    nonoenum(["count", "-q"])
        .arg(parts.join("part-001.g"))
        .assert()
        .success()
        .stdout("1\n");
}

/// `count` on a colour puzzle with several solutions agrees on 1 and 2 threads, with and
/// without probing, and `--limit` stops `list` early.
#[test]
fn colour_counts_agree_across_threads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("two.g");
    // Two red diagonals and a blue cell: the red cells can swap diagonals.
    std::fs::write(
        &path,
        "Two\n#d\n r:r #FF0000 red\n b:b #0000FF blue\n: rows\n1r\n1r\n1b\n: columns\n1r 1b\n1r\n",
    )
    .expect("write");
    for args in [["-t", "1"], ["-t", "2"]] {
        for probe in [false, true] {
            let mut cmd = nonoenum(["count", "-q"]);
            cmd.args(args).arg(&path);
            if !probe {
                cmd.arg("--strategy=plain");
            }
            cmd.assert().success().stdout("2\n");
        }
    }
    nonoenum(["list", "-q", "--limit", "1"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicates::str::is_match("^[.rb]{2}\n[.rb]{2}\n[.rb]{2}\n$").expect("regex"));
}

/// The 18 colour puzzles of the survey, decided by the race of the learning and the probing
/// search on 2 threads: each solution found satisfies the clues, and the verdicts are those of
/// the probing search alone (which decides all but #672 Web within seconds). The slowest
/// (#672, #2498, #3149, #4445) run in release builds only.
#[test]
fn colour_survey_verdicts_with_the_learning_search() {
    let Some(dir) = shared_dir("survey/olsak-g") else {
        return;
    };
    let unique = [47, 220, 1503, 2073, 2257, 2814, 2817, 4364, 4940];
    let multiple = [672, 2498, 2684, 2984, 3149, 3620, 4445, 4809, 5193];
    let slow = [672, 2498, 3149, 4445];
    for id in unique.iter().chain(&multiple) {
        if cfg!(debug_assertions) && slow.contains(id) {
            eprintln!("skipping colour survey #{id} in a debug build");
            continue;
        }
        let path = dir.join(format!("webpbn-color-{id:05}.g"));
        let AnyPuzzle::Color(puzzle) = &load(&path)[0] else {
            panic!("#{id} is a colour puzzle")
        };
        let options = SolverOptions {
            threads: 2,
            engine: nonoenum::Engine::Both,
            ..SolverOptions::default()
        };
        let (found, outcome) = ColorSolver::new(puzzle, options)
            .find(2)
            .expect("the search runs");
        for grid in &found {
            puzzle
                .check_grid(&grid.to_colors())
                .unwrap_or_else(|e| panic!("#{id}: {e}"));
        }
        let expected = if unique.contains(id) { 1 } else { 2 };
        assert_eq!(found.len(), expected, "#{id}");
        assert!(
            outcome.exhausted || expected == 2,
            "#{id}: uniqueness proven"
        );
        if found.len() == 2 {
            assert_ne!(found[0], found[1], "#{id}");
        }
    }
}
