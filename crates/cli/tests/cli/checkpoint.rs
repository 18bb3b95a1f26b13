//! Checkpointed runs survive anything: `kill -9` at pseudo-random moments, again and again,
//! then `nonoenum resume` until the run ends, gives the exact count, and an output file with
//! every solution exactly once. Also: a time limit saves and resumes; damaged checkpoints and
//! output files are refused. Colour puzzles survive the same way.

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use tempfile::TempDir;

use crate::common;
use common::{Run, nonoenum, perm};

/// A small deterministic generator of kill delays, in milliseconds.
struct Delays(u64);

impl Delays {
    fn next_ms(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // A release build lists the permutations of `KILLED_PERM` in a few tenths of a
        // second on a fast machine: its kills come sooner.
        if cfg!(debug_assertions) {
            80 + (self.0 >> 33) % 500
        } else {
            10 + (self.0 >> 33) % 60
        }
    }
}

/// The permutation puzzle the kill tests run: big enough that the runs are still going when
/// they are killed, in the debug build CI tests and in a release build alike, on a fast
/// machine too (the debug build lists 8! in 0.26 s on a quiet evening, before three of its
/// kills had come; 9! takes 1.7 s there).
const KILLED_PERM: usize = if cfg!(debug_assertions) { 9 } else { 10 };

/// `KILLED_PERM!`, its number of solutions.
fn killed_total() -> usize {
    (1..=KILLED_PERM).product()
}

/// The permutation puzzle of the tests that count by enumerating: counting goes about ten times
/// as fast as listing, so it needs a puzzle about ten times the size to be still going when
/// killed or stopped at 0.5 s (the debug build takes about 10 s for 10! on a fast machine,
/// 0.1 s for 8!).
const COUNTED_PERM: usize = if cfg!(debug_assertions) { 10 } else { 11 };

/// `COUNTED_PERM!`, its number of solutions.
fn counted_total() -> usize {
    (1..=COUNTED_PERM).product()
}

/// Runs `command`, killing it with SIGKILL after a pseudo-random delay, up to `kills` times
/// (each time with `next`, the resume command); then lets the last one finish. Returns its
/// stdout and how many runs were actually killed.
fn kill_and_resume(
    first: Command,
    mut next: impl FnMut() -> Command,
    kills: usize,
) -> (String, usize) {
    let mut delays = Delays(42);
    let mut command = first;
    let mut killed = 0;
    for _ in 0..kills {
        let mut child = command.spawn_piped();
        std::thread::sleep(Duration::from_millis(delays.next_ms()));
        if child.try_wait().expect("wait").is_none() {
            child.kill().expect("SIGKILL");
            killed += 1;
        }
        let output = child.wait_with_output().expect("ends");
        if output.status.success() {
            return (String::from_utf8(output.stdout).expect("UTF-8"), killed);
        }
        command = next();
    }
    let output = command.output().expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (String::from_utf8(output.stdout).expect("UTF-8"), killed)
}

/// The grids of a listing (separated by blank lines), checked to be `total` and all different.
fn distinct_grids(listing: &str, total: usize) -> Vec<&str> {
    let grids: Vec<&str> = listing
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .collect();
    let distinct: HashSet<&str> = grids.iter().copied().collect();
    assert_eq!(grids.len(), distinct.len(), "a solution is listed twice");
    assert_eq!(grids.len(), total, "solutions missing");
    grids
}

/// Checks that `listing` holds every `n` x `n` permutation matrix exactly once.
fn assert_every_permutation_once(listing: &str, n: usize, total: usize) {
    let grids = distinct_grids(listing, total);
    for grid in grids {
        let rows: Vec<&str> = grid.lines().collect();
        assert_eq!(rows.len(), n, "a partial solution: {grid:?}");
        for col in 0..n {
            let filled = rows.iter().filter(|r| r.as_bytes()[col] == b'#').count();
            assert_eq!(filled, 1, "{grid}");
        }
        assert!(
            rows.iter()
                .all(|r| r.len() == n && r.matches('#').count() == 1),
            "{grid}"
        );
    }
}

#[test]
fn list_survives_repeated_kill_9_with_every_solution_once() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), KILLED_PERM);
    let (ck, out) = (tmp.path().join("ck.json"), tmp.path().join("out.txt"));
    let (ck, out, p) = (
        ck.to_str().expect("path"),
        out.to_str().expect("path"),
        puzzle.to_str().expect("path"),
    );
    let first = nonoenum([
        "list",
        "-q",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0.05",
        "--output",
        out,
        p,
    ]);
    let (_, killed) = kill_and_resume(
        first,
        || nonoenum(["resume", "-q", "--checkpoint-every", "0.05", ck]),
        12,
    );
    assert!(
        killed >= 3,
        "only {killed} runs were killed: the test proves little"
    );
    let listing = std::fs::read_to_string(out).expect("output file");
    assert_every_permutation_once(&listing, KILLED_PERM, killed_total());
}

#[test]
fn count_survives_repeated_kill_9_exactly() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), COUNTED_PERM);
    let ck = tmp.path().join("ck.json");
    let (ck, p) = (ck.to_str().expect("path"), puzzle.to_str().expect("path"));
    let first = nonoenum([
        "count",
        "--method",
        "enumerate",
        "-q",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0.05",
        p,
    ]);
    let (stdout, killed) = kill_and_resume(
        first,
        || nonoenum(["resume", "-q", "--checkpoint-every", "0.05", ck]),
        12,
    );
    assert!(killed >= 3, "only {killed} runs were killed");
    assert_eq!(stdout, format!("{}\n", counted_total()));
    // Resuming a finished run prints its result again.
    let again = nonoenum(["resume", ck]).output().expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout),
        format!("{}\n", counted_total())
    );
}

/// The colour band puzzle the kill tests run (see `common::write_bands`), big enough that the
/// runs are still going when they are killed: 3 colours on 4 columns, `(4!)^3` = 13,824
/// solutions, in the debug build CI tests; 4 colours, `(4!)^4` = 331,776, in a release build,
/// which lists the smaller one before the first kill.
const KILLED_BANDS: (usize, usize) = if cfg!(debug_assertions) {
    (3, 4)
} else {
    (4, 4)
};

#[test]
fn colour_list_and_count_survive_repeated_kill_9() {
    let tmp = TempDir::new().expect("temp dir");
    let (k, m) = KILLED_BANDS;
    let total = common::bands_total(k, m);
    let puzzle = common::write_bands(tmp.path(), k, m);
    let (ck, out) = (tmp.path().join("ck.json"), tmp.path().join("out.txt"));
    let count_ck = tmp.path().join("count.json");
    let (ck, out, count_ck, p) = (
        ck.to_str().expect("path"),
        out.to_str().expect("path"),
        count_ck.to_str().expect("path"),
        puzzle.to_str().expect("path"),
    );
    let every = ["--checkpoint-every", "0.05"];
    // A run killed before it saved its checkpoint (on a loaded machine) has nothing to
    // resume: it starts again.
    let start_or_resume = |start: &[&str], ck: &str| {
        if Path::new(ck).exists() {
            nonoenum(["resume", "-q", every[0], every[1], ck])
        } else {
            nonoenum(start)
        }
    };
    let list = [
        "list",
        "-q",
        "--checkpoint",
        ck,
        every[0],
        every[1],
        "--output",
        out,
        p,
    ];
    let (_, killed) = kill_and_resume(nonoenum(list), || start_or_resume(&list, ck), 12);
    assert!(killed >= 3, "only {killed} list runs were killed");
    let listing = std::fs::read_to_string(out).expect("output file");
    let grids = distinct_grids(&listing, total);
    for grid in grids {
        common::assert_band_solution(grid, k, m);
    }

    let count = [
        "count",
        "--method",
        "enumerate",
        "-q",
        "--checkpoint",
        count_ck,
        every[0],
        every[1],
        p,
    ];
    let (stdout, killed) =
        kill_and_resume(nonoenum(count), || start_or_resume(&count, count_ck), 12);
    assert!(killed >= 3, "only {killed} count runs were killed");
    assert_eq!(stdout, format!("{total}\n"));
    let checkpoint = std::fs::read_to_string(count_ck).expect("checkpoint");
    assert!(
        checkpoint.contains(r#""puzzle_format":"g""#),
        "{checkpoint}"
    );
}

#[test]
fn a_time_limit_saves_the_run_and_resume_finishes_it() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), COUNTED_PERM);
    let ck = tmp.path().join("ck.json");
    let (ck, p) = (ck.to_str().expect("path"), puzzle.to_str().expect("path"));
    let stopped = nonoenum([
        "count",
        "--method",
        "enumerate",
        "--checkpoint",
        ck,
        "--time-limit",
        "0.5",
        p,
    ])
    .output()
    .expect("runs");
    assert_eq!(stopped.status.code(), Some(3));
    let line = String::from_utf8_lossy(&stopped.stdout).to_string();
    assert!(
        line.starts_with("incomplete: at least ") && line.ends_with("(time limit reached)\n"),
        "{line}"
    );
    let err = String::from_utf8_lossy(&stopped.stderr).to_string();
    assert!(err.contains("nonoenum resume"), "{err}");
    let done = nonoenum(["resume", ck]).output().expect("runs");
    assert!(done.status.success());
    assert_eq!(
        String::from_utf8_lossy(&done.stdout),
        format!("{}\n", counted_total())
    );
}

/// A time limit that comes while the run is still splitting the search stops it at once; the
/// checkpoint, saved unsplit, resumes, and splits then. A 2000x2000 permutation puzzle takes
/// over a second to split even in a release build, four times the limit.
#[test]
fn a_time_limit_during_the_split_stops_the_run_promptly() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 2000);
    let ck = tmp.path().join("ck.json");
    let (ck, p) = (ck.to_str().expect("path"), puzzle.to_str().expect("path"));
    let args = ["--method", "enumerate", "--checkpoint", ck];
    for run in [
        [&["count"], &args[..], &["--time-limit", "0.25", p]].concat(),
        vec!["resume", "--time-limit", "0.25", ck],
    ] {
        let start = std::time::Instant::now();
        let stopped = nonoenum(&run).output().expect("runs");
        let took = start.elapsed();
        assert!(took < Duration::from_secs(2), "{run:?} took {took:?}");
        let err = String::from_utf8_lossy(&stopped.stderr).to_string();
        assert_eq!(stopped.status.code(), Some(3), "{err}");
        assert_eq!(
            String::from_utf8_lossy(&stopped.stdout),
            "incomplete: at least 0 (time limit reached)\n"
        );
        assert!(err.contains("not split into parts yet"), "{err}");
        assert!(err.contains("nonoenum resume"), "{err}");
    }
}

/// A checkpoint file that is also the listing or the puzzle, standard input as the
/// checkpoint, and a FIFO as the listing are refused before anything is written.
#[test]
fn files_a_checkpoint_cannot_share_or_use_are_refused() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 5);
    let p = puzzle.to_str().expect("path");
    let before = std::fs::read(&puzzle).expect("the puzzle");
    let ck = tmp.path().join("ck.json");
    let ck = ck.to_str().expect("path");
    let fifo = tmp.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let fifo = fifo.to_str().expect("path");
    let mut runs = vec![
        (
            vec!["list", "--checkpoint", ck, "-o", ck, p],
            "is the file of -o too",
        ),
        (
            vec!["count", "--method=enumerate", "--checkpoint", p, p],
            "of the puzzle too",
        ),
        (vec!["resume", "-"], "name the file, not -"),
    ];
    if made.is_ok_and(|s| s.success()) {
        let needs = "a checkpointed listing needs a regular file";
        runs.push((vec!["list", "--checkpoint", ck, "-o", fifo, p], needs));
    }
    for (args, needle) in runs {
        common::assert_bad_input(&args, &[needle]);
    }
    assert_eq!(std::fs::read(&puzzle).expect("the puzzle"), before);
    assert!(!Path::new(ck).exists(), "no checkpoint written");
}

#[test]
fn damaged_checkpoints_and_outputs_are_refused() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 5);
    let (ck, out) = (tmp.path().join("ck.json"), tmp.path().join("out.txt"));
    let (ck_s, out_s, p) = (
        ck.to_str().expect("path"),
        out.to_str().expect("path"),
        puzzle.to_str().expect("path"),
    );
    let ran = nonoenum(["list", "-q", "--checkpoint", ck_s, "--output", out_s, p])
        .output()
        .expect("runs");
    assert!(ran.status.success());

    // The output file lost its end: resuming cannot make it exact again.
    std::fs::write(&out, "#....\n").expect("write");
    let err = nonoenum(["resume", ck_s]).output().expect("runs");
    assert_eq!(err.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&err.stderr).contains("shorter"),
        "{err:?}"
    );

    // The puzzle in a checkpoint was replaced by another (valid) one.
    let count_ck = tmp.path().join("count.json");
    let count_ck_s = count_ck.to_str().expect("path");
    let mut state = finished_checkpoint(count_ck_s, p);
    state["puzzle_text"] = serde_json::Value::from("2 2\n1\n1\n1\n1\n");
    std::fs::write(&count_ck, state.to_string()).expect("write");
    let err = nonoenum(["resume", count_ck_s]).output().expect("runs");
    assert_eq!(err.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&err.stderr).contains("altered"),
        "{err:?}"
    );

    std::fs::write(&ck, "{}").expect("write");
    let err = nonoenum(["resume", ck_s]).output().expect("runs");
    assert!(
        String::from_utf8_lossy(&err.stderr).contains("not a nonoenum checkpoint"),
        "{err:?}"
    );
}

/// Runs a checkpointed count of `puzzle` to the end and returns the checkpoint it leaves.
fn finished_checkpoint(ck: &str, puzzle: &str) -> serde_json::Value {
    let args = [
        "count",
        "--method",
        "enumerate",
        "-q",
        "--checkpoint",
        ck,
        puzzle,
    ];
    let ran = nonoenum(args).output().expect("runs");
    assert!(ran.status.success(), "{ran:?}");
    let text = std::fs::read_to_string(ck).expect("read");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn doctored_numbers_in_a_checkpoint_are_refused() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let ck = tmp.path().join("ck.json");
    let (ck_s, p) = (ck.to_str().expect("path"), puzzle.to_str().expect("path"));
    let done = finished_checkpoint(ck_s, p);
    let parts = done["parts"].as_u64().expect("split into parts");
    let max = u64::MAX;
    let u128_max = u128::MAX.to_string();
    let cases: [(&str, serde_json::Value, &str); 7] = [
        (
            "open",
            serde_json::json!([[[max, 0, 1]]]),
            "lies outside the 4x4 grid",
        ),
        (
            "open",
            serde_json::json!([[[0, max, 1]]]),
            "lies outside the 4x4 grid",
        ),
        (
            "open",
            serde_json::json!([[[0, 0, max]]]),
            "a value no cell can have",
        ),
        (
            "open",
            serde_json::json!([[[0, 0, 5]]]),
            "a value no cell can have",
        ),
        (
            "committed",
            serde_json::json!(u128_max),
            "the committed count is too large",
        ),
        ("parts", serde_json::json!(0), "before the search was split"),
        (
            "open",
            serde_json::json!(vec![[[0, 0, 1]]; parts as usize + 1]),
            "open parts of",
        ),
    ];
    for (field, value, says) in cases {
        let mut state = done.clone();
        state[field] = value;
        if field == "committed" {
            state["open"] = serde_json::json!([[[0, 0, 1]]]);
        }
        // Without the progress checksum (as in older checkpoints), each number is checked.
        let _ = state.as_object_mut().map(|s| s.remove("progress"));
        std::fs::write(&ck, state.to_string()).expect("write");
        common::assert_bad_input(&["resume", ck_s], &[&format!("{ck_s}: "), says]);
    }
    // With it, any edit of the progress is refused, even one whose numbers fit.
    let mut state = done;
    state["committed"] = serde_json::json!("7");
    std::fs::write(&ck, state.to_string()).expect("write");
    let says = "its progress does not match its checksum";
    common::assert_bad_input(&["resume", ck_s], &[&format!("{ck_s}: "), says]);
}

#[test]
fn checkpoint_usage_errors() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let ck = tmp.path().join("ck.json");
    let (ck, p) = (ck.to_str().expect("path"), puzzle.to_str().expect("path"));
    let enumerate = |option: &'static str| {
        vec![
            "count",
            "--method",
            "enumerate",
            "--checkpoint",
            ck,
            option,
            p,
        ]
    };
    for (args, says) in [
        // `solve` has no --checkpoint: clap refuses the argument.
        (
            vec!["solve", "--checkpoint", ck, p],
            "unexpected argument '--checkpoint'",
        ),
        (vec!["list", "--checkpoint", ck, p], "needs -o FILE"),
        (enumerate("--limit=3"), "does not go with --limit"),
        (enumerate("--max-solutions=3"), "does not go with --limit"),
        (enumerate("--to=jsonl"), "does not go with --to json"),
        (enumerate("--json"), "does not go with --to json"),
        (enumerate("--stats"), "does not go with --stats"),
        (
            enumerate("--strategy=learn"),
            "does not go with --strategy learn",
        ),
    ] {
        let output = nonoenum(&args).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(says),
            "{args:?}: {output:?}"
        );
    }
}

#[test]
fn list_output_file_is_written_whole() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 6);
    let out = tmp.path().join("all.txt");
    let ran = nonoenum([
        "list",
        "--output",
        out.to_str().expect("path"),
        puzzle.to_str().expect("path"),
    ])
    .output()
    .expect("runs");
    assert!(ran.status.success());
    assert!(ran.stdout.is_empty());
    assert_every_permutation_once(&std::fs::read_to_string(&out).expect("file"), 6, 720);
    assert!(!tmp.path().join("all.txt.tmp").exists());
}
