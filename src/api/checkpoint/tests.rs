//! Checkpointed runs stopped after some parts, saved, loaded and resumed: the total is exact
//! and every solution is listed exactly once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::*;
use crate::ProgressMeter;
use crate::search::{Solver, SolverOptions};
use crate::test_strategies::{colour_bands, permutations};

/// Every solution of `puzzle`, each as its cells, by a direct enumeration.
fn enumerated(puzzle: &AnyPuzzle) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    let outcome = puzzle
        .solver(SolverOptions::default())
        .run(|grid| {
            all.push(grid.to_cells());
            Flow::Continue
        })
        .expect("enumerates");
    assert!(outcome.exhausted);
    all
}

/// Options on two threads, saving after every commit.
fn options() -> CheckpointOptions {
    CheckpointOptions {
        threads: 2,
        save_every: Duration::ZERO,
        ..CheckpointOptions::default()
    }
}

/// Runs the checkpoint at `path` to the end, loading it again before each run, each run
/// stopped by `stop` (called with every event); returns how many runs it took.
fn run_to_the_end(
    path: &Path,
    mut stop: impl FnMut(&CheckpointEvent<'_>, &CheckpointOptions) -> Flow,
) -> usize {
    for runs in 1..1000 {
        let mut checkpoint = Checkpoint::load(path).expect("loads");
        let options = options();
        let end = checkpoint
            .run(path, &options, |event| stop(&event, &options))
            .expect("runs");
        if end == CheckpointEnd::Complete {
            assert!(checkpoint.is_complete());
            return runs;
        }
        assert!(!checkpoint.is_complete());
    }
    panic!("the run does not end");
}

/// The solutions of a listing's output file, counted.
fn listed(output: &Path) -> HashMap<String, usize> {
    let text = std::fs::read_to_string(output).expect("the output file");
    let mut seen = HashMap::new();
    for solution in text.split("\n\n").filter(|s| !s.is_empty()) {
        *seen.entry(solution.trim_end().to_string()).or_insert(0) += 1;
    }
    seen
}

/// A solution's cells as the output file draws them.
fn drawn(cells: &[u8], width: usize, chars: &[char]) -> String {
    let rows: Vec<String> = cells
        .chunks(width)
        .map(|row| row.iter().map(|&c| chars[usize::from(c)]).collect())
        .collect();
    rows.join("\n")
}

/// A temporary folder, and the paths of a checkpoint and of a listing in it.
fn folder_with_listing() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (path, out) = (dir.path().join("ck.json"), dir.path().join("out.txt"));
    (dir, path, out)
}

/// The settings of a checkpointed listing written to `out`.
fn listing_to(out: &Path) -> CheckpointSettings {
    CheckpointSettings {
        output: Some(out.to_path_buf()),
        ..CheckpointSettings::default()
    }
}

#[test]
fn a_listing_stopped_after_each_few_parts_lists_every_solution_once() {
    let (_dir, path, out) = folder_with_listing();
    let puzzle = AnyPuzzle::Bw(permutations(6));
    let settings = CheckpointSettings {
        label: "perm6".into(),
        ..listing_to(&out)
    };
    let checkpoint = Checkpoint::create(&puzzle, settings).expect("created");
    checkpoint.save(&path).expect("saved");
    // Each run commits three parts, then says stop.
    let mut commits = 0;
    let runs = run_to_the_end(&path, |event, _| {
        if matches!(event, CheckpointEvent::Committed { .. }) {
            commits += 1;
            if commits % 3 == 0 {
                return Flow::Stop;
            }
        }
        Flow::Continue
    });
    let done = Checkpoint::load(&path).expect("loads");
    assert!(runs > 2, "{runs} runs of {} parts", done.parts());
    assert_eq!(done.committed(), 720);
    let seen = listed(&out);
    assert!(seen.values().all(|&n| n == 1), "a solution listed twice");
    let expected: Vec<String> = enumerated(&puzzle)
        .iter()
        .map(|cells| drawn(cells, 6, &['.', '#']))
        .collect();
    assert_eq!(seen.len(), expected.len());
    assert!(expected.iter().all(|s| seen.contains_key(s)));
}

/// A missing output file is named once, and what the system said once, as its cause.
#[test]
fn a_missing_output_file_is_reported_once() {
    let (_dir, path, out) = folder_with_listing();
    let puzzle = AnyPuzzle::Bw(permutations(3));
    let mut checkpoint = Checkpoint::create(&puzzle, listing_to(&out)).expect("created");
    std::fs::remove_file(&out).expect("removed");
    let err = (checkpoint.run(&path, &options(), |_| Flow::Continue)).expect_err("no output");
    let cause = std::error::Error::source(&err)
        .expect("a cause")
        .to_string();
    assert_eq!(
        err.to_string(),
        format!("cannot open the output file {}", out.display())
    );
    assert!(!err.to_string().contains(&cause), "{err}: {cause}");
}

#[test]
fn a_run_cancelled_inside_a_part_drops_its_solutions_and_finds_them_again() {
    let (_dir, path, out) = folder_with_listing();
    let puzzle = AnyPuzzle::Bw(permutations(6));
    let settings = listing_to(&out);
    Checkpoint::create(&puzzle, settings)
        .and_then(|c| c.save(&path))
        .expect("created");
    // Each run raises the cancel flag once 50 more solutions came: the part running stops,
    // and its solutions, dropped, are found again by the next run.
    let mut solutions = 0;
    let mut stopped = 0;
    let runs = run_to_the_end(&path, |event, options| {
        if let CheckpointEvent::Found { solutions: n, .. } = event {
            solutions += n;
            if (solutions - n) / 50 != solutions / 50 {
                options.cancel.store(true, Ordering::Relaxed);
                stopped += 1;
            }
        }
        Flow::Continue
    });
    assert!(runs > 2 && stopped > 2, "{runs} runs");
    assert!(
        solutions > 720,
        "the stopped parts' solutions are found again"
    );
    assert_eq!(Checkpoint::load(&path).expect("loads").committed(), 720);
    let seen = listed(&out);
    assert_eq!(seen.len(), 720);
    assert!(seen.values().all(|&n| n == 1), "a solution listed twice");
}

/// Runs that each stop after 30 solutions, fewer than the largest parts hold: a part a run
/// stopped in is cut again, so the runs still end, ordered, with every solution once.
#[test]
fn runs_shorter_than_a_part_still_end() {
    for probing in [Probing::Always, Probing::Adaptive, Probing::Never] {
        let (_dir, path, out) = folder_with_listing();
        let puzzle = AnyPuzzle::Bw(permutations(7));
        create_ordered(&puzzle, &path, &out, probing);
        let runs = run_to_the_end(&path, stop_every(30));
        assert!(runs > 10, "{runs} runs");
        let checkpoint = Checkpoint::load(&path).expect("loads");
        assert!(checkpoint.parts() > 64, "{} parts", checkpoint.parts());
        let written = std::fs::read_to_string(&out).expect("the listing");
        assert!(
            written == ordered_listing(&puzzle, 7, probing),
            "not the ordered listing, {probing:?}"
        );
    }
}

/// A handler of a run's events that stops the part whose batch passes the next `every`
/// solutions.
fn stop_every(every: u64) -> impl FnMut(&CheckpointEvent<'_>, &CheckpointOptions) -> Flow {
    let mut found = 0;
    move |event, _| match *event {
        CheckpointEvent::Found { solutions, .. } => {
            found += solutions;
            if (found - solutions) / every != found / every {
                Flow::Stop
            } else {
                Flow::Continue
            }
        }
        _ => Flow::Continue,
    }
}

/// A puzzle whose search lists its root as a product (seventeen separate 2x2 squares in a row,
/// each holding one of its diagonals: 2^17 solutions): the checkpoint cuts it on its first
/// squares' solutions, each part a block of the product's walk, and runs stopped inside parts
/// cut them so too, so the listing is the ordered search's, however often it stops.
#[test]
fn a_product_is_cut_in_the_order_of_its_walk() {
    let (_dir, path, out) = folder_with_listing();
    let cols: Vec<&str> = (0..50)
        .map(|c| if c % 3 == 2 { "0" } else { "1" })
        .collect();
    let row = vec!["1"; 17].join(" ");
    let text = format!("2 50\n{row}\n{row}\n{}\n", cols.join("\n"));
    let puzzle = AnyPuzzle::parse(&text).expect("valid");
    let ordered = ordered_listing_of(&puzzle, 50, Probing::Adaptive).1;
    create_ordered(&puzzle, &path, &out, Probing::Adaptive);
    assert_eq!(run_to_the_end(&path, |_, _| Flow::Continue), 1);
    let parts = Checkpoint::load(&path).expect("loads").parts();
    assert!(parts >= 64, "{parts} parts");
    assert!(std::fs::read_to_string(&out).expect("the listing") == ordered);
    let (_dir, path, out) = folder_with_listing();
    create_ordered(&puzzle, &path, &out, Probing::Adaptive);
    let runs = run_to_the_end(&path, stop_every(1_500));
    assert!(runs > 20, "{runs} runs");
    assert!(std::fs::read_to_string(&out).expect("the listing") == ordered);
}

/// Parts whose solutions come in several batches (a 60x60 grid holding a 7x7 permutation
/// puzzle: 3,660 bytes a solution, 17 to a batch): the listing is the ordered search's.
#[test]
fn parts_of_many_batches_list_as_the_ordered_search() {
    let (_dir, path, out) = folder_with_listing();
    let lines = "1\n".repeat(7) + &"0\n".repeat(53);
    let puzzle = AnyPuzzle::parse(&format!("60 60\n{lines}{lines}")).expect("valid");
    for probing in [Probing::Always, Probing::Adaptive] {
        create_ordered(&puzzle, &path, &out, probing);
        assert_eq!(run_to_the_end(&path, |_, _| Flow::Continue), 1);
        let written = std::fs::read_to_string(&out).expect("the listing");
        assert!(
            written == ordered_listing(&puzzle, 60, probing),
            "not the ordered listing, {probing:?}"
        );
        std::fs::remove_file(&path).expect("removed");
    }
}

/// A run whose deadline has come stops its part at the first batch (18 solutions of a 60x60
/// grid) and cuts its output back, so that no cutting back runs past the deadline; a later
/// run lists every solution once.
#[test]
fn a_deadline_stops_the_part_before_its_output_grows() {
    let (_dir, path, out) = folder_with_listing();
    let lines = "1\n".repeat(7) + &"0\n".repeat(53);
    let puzzle = AnyPuzzle::parse(&format!("60 60\n{lines}{lines}")).expect("valid");
    Checkpoint::create(&puzzle, listing_to(&out))
        .and_then(|c| c.save(&path))
        .expect("created");
    let mut checkpoint = Checkpoint::load(&path).expect("loads");
    let options = CheckpointOptions {
        deadline: Some(std::time::Instant::now()),
        ..options()
    };
    let mut found = 0;
    let end = (checkpoint.run(&path, &options, |event| {
        if let CheckpointEvent::Found { solutions, .. } = event {
            found += solutions;
        }
        Flow::Continue
    }))
    .expect("runs");
    assert!(matches!(end, CheckpointEnd::Stopped { .. }), "{end:?}");
    assert!((1..100).contains(&found), "{found} found");
    assert_eq!(std::fs::metadata(&out).expect("the listing").len(), 0);
    assert_eq!(run_to_the_end(&path, |_, _| Flow::Continue), 1);
    let seen = listed(&out);
    assert_eq!(seen.len(), 5040);
    assert!(seen.values().all(|&n| n == 1), "a solution listed twice");
}

/// Saves at `path` a new checkpoint of an ordered listing of `puzzle` to `out`.
fn create_ordered(puzzle: &AnyPuzzle, path: &Path, out: &Path, probing: Probing) {
    let settings = CheckpointSettings {
        probing,
        ordered: true,
        ..listing_to(out)
    };
    Checkpoint::create(puzzle, settings)
        .and_then(|c| c.save(path))
        .expect("created");
}

/// The listing of the ordered search of a 7x7 permutation puzzle on one thread, as a
/// checkpoint's output file holds it.
fn ordered_listing(puzzle: &AnyPuzzle, width: usize, probing: Probing) -> String {
    let (solutions, listing) = ordered_listing_of(puzzle, width, probing);
    assert_eq!(solutions, 5040);
    listing
}

/// The number of solutions of `puzzle` and their listing by the ordered search on one thread.
fn ordered_listing_of(puzzle: &AnyPuzzle, width: usize, probing: Probing) -> (u64, String) {
    let ordered = SolverOptions {
        threads: 1,
        probing,
        ordered: true,
        ..SolverOptions::default()
    };
    let mut solutions = Vec::new();
    let outcome = (puzzle.solver(ordered)).run(|grid| {
        solutions.push(drawn(&grid.to_cells(), width, &['.', '#']) + "\n");
        Flow::Continue
    });
    (outcome.expect("enumerates").solutions, solutions.join("\n"))
}

/// Two runs of one listing at once would interleave their solutions: the second is refused
/// while the first holds the output file.
#[test]
fn a_second_run_of_one_listing_is_refused() {
    let (_dir, _path, out) = folder_with_listing();
    std::fs::write(&out, "").expect("written");
    let first = super::files::Output::open(&out, 0).expect("opens");
    let second = super::files::Output::open(&out, 0).err().expect("refused");
    assert!(second.to_string().starts_with("cannot write"), "{second}");
    let why = std::error::Error::source(&second).map(ToString::to_string);
    assert_eq!(
        why.as_deref(),
        Some("another run of this checkpoint is writing it")
    );
    drop(first);
    assert!(super::files::Output::open(&out, 0).is_ok());
}

#[test]
fn a_colour_count_resumed_is_exact() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("ck.json");
    let puzzle = AnyPuzzle::Color(colour_bands(2, 3));
    let expected = enumerated(&puzzle).len() as u128;
    assert_eq!(expected, 36);
    Checkpoint::create(&puzzle, CheckpointSettings::default())
        .and_then(|c| c.save(&path))
        .expect("created");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains(r#""puzzle_format":"g""#), "{text}");
    let runs = run_to_the_end(&path, |event, _| match event {
        CheckpointEvent::Committed { .. } => Flow::Stop,
        _ => Flow::Continue,
    });
    let done = Checkpoint::load(&path).expect("loads");
    assert_eq!(done.committed(), expected);
    assert_eq!(runs, done.parts());
}

#[test]
fn a_direct_solver_and_a_checkpoint_agree_on_a_count() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("ck.json");
    let puzzle = permutations(5);
    let direct = Solver::new(&puzzle, SolverOptions::default())
        .count()
        .expect("counts");
    let mut checkpoint =
        Checkpoint::create(&AnyPuzzle::Bw(puzzle), CheckpointSettings::default()).expect("ok");
    let end = checkpoint
        .run(&path, &options(), |_| Flow::Continue)
        .expect("runs");
    assert_eq!(end, CheckpointEnd::Complete);
    assert_eq!(checkpoint.committed(), u128::from(direct.solutions));
    assert_eq!(checkpoint.open_parts(), 0);
    assert!(checkpoint.parts() > 1);
}

/// A run cancelled before its split, whose one part (the whole search) still finished, is
/// saved as one finished part, and its checkpoint loads and resumes to the same count.
#[test]
fn a_search_that_finishes_before_its_split_resumes_as_finished() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("ck.json");
    // Probing solves it at the root, before the search looks at the cancel flag.
    let puzzle = AnyPuzzle::parse("1 4\n0\n0\n0\n0\n0\n").expect("a puzzle");
    let mut checkpoint = Checkpoint::create(&puzzle, CheckpointSettings::default()).expect("ok");
    let options = options();
    options.cancel.store(true, Ordering::Relaxed);
    let end = checkpoint
        .run(&path, &options, |_| Flow::Continue)
        .expect("runs");
    assert_eq!(end, CheckpointEnd::Complete);
    assert_eq!((checkpoint.committed(), checkpoint.parts()), (1, 1));
    let mut resumed = Checkpoint::load(&path).expect("a finished checkpoint loads");
    let end = resumed.run(&path, &self::options(), |_| Flow::Continue);
    assert_eq!(end.expect("resumes"), CheckpointEnd::Complete);
    assert_eq!(resumed.committed(), 1);
}

/// A finished count of the 4x4 permutations, as JSON.
fn finished() -> serde_json::Value {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("ck.json");
    let mut checkpoint = Checkpoint::create(
        &AnyPuzzle::Bw(permutations(4)),
        CheckpointSettings::default(),
    )
    .expect("created");
    let _ = checkpoint
        .run(&path, &options(), |_| Flow::Continue)
        .expect("runs");
    serde_json::from_str(&checkpoint.to_json()).expect("JSON")
}

/// Asserts that `state` with each field set to its value is refused with the words given.
/// The progress checksum is left out, as in older checkpoints, so that the check of the field
/// itself answers.
fn assert_each_refused<const N: usize>(
    state: &serde_json::Value,
    cases: [(&str, serde_json::Value, &str); N],
) {
    for (field, value, says) in cases {
        let mut state = state.clone();
        state[field] = value;
        let _ = state.as_object_mut().map(|s| s.remove("progress"));
        let err = Checkpoint::from_json(state.to_string().as_bytes()).expect_err(says);
        assert!(err.to_string().contains(says), "{err}");
        assert!(err.is_in_checkpoint());
    }
}

#[test]
fn altered_checkpoints_are_refused() {
    let done = finished();
    let u128_max = u128::MAX.to_string();
    let cases: [(&str, serde_json::Value, &str); 6] = [
        (
            "open",
            serde_json::json!([[[9, 0, 1]]]),
            "lies outside the 4x4 grid",
        ),
        (
            "open",
            serde_json::json!([[[0, 0, 5]]]),
            "a value no cell can have",
        ),
        ("parts", serde_json::json!(0), "before the search was split"),
        ("committed", serde_json::json!("x"), "bad committed count"),
        ("format", serde_json::json!("other/1"), "format `other/1`"),
        (
            "puzzle_text",
            serde_json::json!("2 2\n1\n1\n1\n1\n"),
            "checksums",
        ),
    ];
    assert_each_refused(&done, cases);
    let mut state = done;
    state["open"] = serde_json::json!([[[0, 0, 1]]]);
    state["committed"] = serde_json::json!(u128_max);
    let _ = state.as_object_mut().map(|s| s.remove("progress"));
    let mut checkpoint = Checkpoint::from_json(state.to_string().as_bytes()).expect("reads");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let err = checkpoint
        .run(dir.path().join("ck.json"), &options(), |_| Flow::Continue)
        .expect_err("overflows");
    assert!(err.to_string().contains("too large"), "{err}");
}

/// Checkpoints as counts and listings write them, black and white and colour.
fn seeds() -> Vec<Vec<u8>> {
    let bw = serde_json::json!({
        "format": CHECKPOINT_FORMAT, "command": "count", "label": "plus",
        "puzzle_text": "3 3\n1\n3\n1\n1\n3\n1\n", "puzzle": "x", "givens": "y",
        "probing": true, "adaptive": true, "output": null, "output_len": 0,
        "committed": "0", "parts": 3, "open": [[[0, 0, 1]], [[0, 0, 0], [1, 1, 1]]],
    });
    let color = serde_json::json!({
        "format": CHECKPOINT_FORMAT, "command": "list", "label": "flag",
        "puzzle_text": include_str!("../../../puzzles/flag.g"), "puzzle_format": "g",
        "puzzle": "x", "givens": "y", "probing": false, "ordered": true,
        "output": "out.txt", "output_len": 12, "committed": "7", "parts": 2,
        "open": [[[1, 2, 2]]],
    });
    [bw, color]
        .iter()
        .map(|v| v.to_string().into_bytes())
        .collect()
}

/// One of `seeds` with a few random edits: inserted, deleted or replaced runs of bytes.
fn edited_seed() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let byte = prop_oneof![
        Just(b'0'),
        Just(b'9'),
        Just(b','),
        Just(b'"'),
        Just(b'-'),
        any::<u8>()
    ];
    let edit = (
        any::<usize>(),
        0usize..4,
        proptest::collection::vec(byte, 0..4),
    );
    let edits = proptest::collection::vec(edit, 1..5);
    (proptest::sample::select(seeds()), edits).prop_map(|(mut bytes, edits)| {
        for (at, delete, insert) in edits {
            let at = at % (bytes.len() + 1);
            let end = (at + delete).min(bytes.len());
            let _ = bytes.splice(at..end, insert);
        }
        bytes
    })
}

proptest::proptest! {
    #![proptest_config(crate::test_strategies::fuzz_cases(300))]

    #[test]
    fn edited_checkpoints_never_panic(bytes in edited_seed()) {
        // The seeds' checksums are wrong: fix them, so that the progress is checked too.
        let mut bytes = bytes;
        if let Ok(mut state) = serde_json::from_slice::<State>(&bytes) {
            let sums = match state.puzzle_format.as_deref() {
                None => Puzzle::from_text(&state.puzzle_text).map(|p| p.checksums()),
                Some(_) => ColorPuzzle::from_text(&state.puzzle_text).map(|p| p.checksums()),
            };
            if let Ok((clues, givens)) = sums {
                (state.puzzle, state.givens) = (clues, givens);
            }
            bytes = serde_json::to_vec(&state).expect("JSON");
        }
        if let Ok(checkpoint) = Checkpoint::from_json(&bytes)
            && let AnyPuzzle::Bw(p) = checkpoint.puzzle()
        {
            for decisions in &checkpoint.state.open {
                let _ = stored::part_of(p, decisions);
            }
        }
    }
}

#[test]
fn the_seeds_are_read_back() {
    for seed in seeds() {
        let state: State = serde_json::from_slice(&seed).expect("a checkpoint");
        assert!(!state.open.is_empty());
    }
}

/// A checkpoint of a 5x5 permutation puzzle cut into parts, none run yet, as JSON.
fn split_unrun() -> serde_json::Value {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut checkpoint = Checkpoint::create(
        &AnyPuzzle::Bw(permutations(5)),
        CheckpointSettings::default(),
    )
    .expect("created");
    let _ = checkpoint.run(dir.path().join("ck.json"), &options(), |_| Flow::Stop);
    serde_json::from_str(&checkpoint.to_json()).expect("JSON")
}

#[test]
fn overlapping_parts_and_edited_progress_are_refused() {
    let unrun = split_unrun();
    let open = unrun["open"].as_array().expect("open parts").clone();
    assert!(open.len() >= 2, "{unrun}");
    assert!(Checkpoint::from_json(unrun.to_string().as_bytes()).is_ok());
    let (first, second) = (open[0].clone(), open[1].clone());
    // As many open parts as parts, one of them repeated, or the whole tree.
    let mut twice = open.clone();
    twice[1] = first.clone();
    let mut with_root = open.clone();
    with_root[1] = serde_json::json!([]);
    let mut both_values = first.as_array().expect("decisions").clone();
    let [row, col] = [0, 1].map(|i| both_values[0][i].clone());
    let other = 1 - both_values[0][2].as_u64().expect("a value");
    both_values.push(serde_json::json!([row, col, other]));
    let cases: [(&str, serde_json::Value, &str); 5] = [
        ("open", serde_json::json!(twice), "overlap"),
        ("open", serde_json::json!(with_root), "overlap"),
        ("open", serde_json::json!([both_values, second]), "twice"),
        (
            "command",
            serde_json::json!("solve"),
            "does not match its output",
        ),
        (
            "command",
            serde_json::json!("list"),
            "does not match its output",
        ),
    ];
    assert_each_refused(&unrun, cases);
    // With the checksum, a part dropped (which leaves no overlap) is refused too.
    let mut dropped = unrun.clone();
    dropped["open"] = serde_json::json!(open[1..]);
    let err = Checkpoint::from_json(dropped.to_string().as_bytes()).expect_err("dropped");
    assert!(err.to_string().contains("checksum"), "{err}");
    let _ = dropped.as_object_mut().map(|s| s.remove("progress"));
    assert!(Checkpoint::from_json(dropped.to_string().as_bytes()).is_ok());
}

/// A run's progress, read as it goes: the solutions found and committed add up, never past
/// the total, the parts done follow the commits, and a later run's rate counts its own
/// solutions only.
#[test]
fn a_checkpoint_reports_its_progress() {
    let puzzle = AnyPuzzle::Bw(permutations(7));
    let (_dir, path, _) = folder_with_listing();
    let created = Checkpoint::create(&puzzle, CheckpointSettings::default()).expect("created");
    created.save(&path).expect("saved");
    let mut first = Checkpoint::load(&path).expect("loads");
    let progress = first.progress();
    assert_eq!(progress.snapshot(), CheckpointSnapshot::default());
    let mut seen = 0;
    let end = first.run(&path, &options(), |event| {
        let now = progress.snapshot();
        assert!(now.committed + u128::from(now.in_part) <= 5040, "{now:?}");
        if let CheckpointEvent::Committed {
            committed, open, ..
        } = event
        {
            assert_eq!((now.committed, now.in_part), (committed, 0), "{now:?}");
            assert_eq!(now.parts_done, now.parts - open, "{now:?}");
            seen += 1;
        }
        if seen == 10 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    });
    assert!(matches!(end, Ok(CheckpointEnd::Stopped { .. })), "{end:?}");
    let stopped = progress.snapshot();
    assert_eq!(stopped.parts_done, 10, "{stopped:?}");
    let mut second = Checkpoint::load(&path).expect("loads");
    second
        .run(&path, &options(), |_| Flow::Continue)
        .expect("runs");
    let done = second.progress().snapshot();
    assert_eq!((done.committed, done.in_part), (5040, 0), "{done:?}");
    assert_eq!(done.parts_done, done.parts, "{done:?}");
    assert_eq!(
        done.found_here,
        5040 - u64::try_from(stopped.committed).expect("small")
    );
    let report = ProgressMeter::checkpoint(second.progress()).report();
    assert_eq!(report.found(), 5040.0);
    let parts = done.parts;
    assert!(
        report
            .to_string()
            .contains(&format!("5,040 saved, {parts}/{parts} parts done"))
    );
}
