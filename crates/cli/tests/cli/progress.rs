//! Progress lines (`count --progress`): short, in the user's words, and a count so far that
//! never goes down, also while sweeps from different sides take turns.

use serde_json::Value;

use crate::common::{nonoenum, perm};

/// The progress lines of a `count` stopped after `seconds`.
fn progress_lines(args: &[&str], puzzle: &std::path::Path, seconds: &str) -> Vec<String> {
    let output = nonoenum(args)
        .args(["--progress", "--time-limit", seconds])
        .arg(puzzle)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    stderr
        .lines()
        .filter(|line| line.starts_with("puzzle 1: "))
        .map(str::to_string)
        .collect()
}

/// The number after `at least ` in a line, read back from its words (`1,234` or `1.23e10`).
fn at_least(line: &str) -> f64 {
    let rest = line
        .split("at least ")
        .nth(1)
        .unwrap_or_else(|| panic!("no count in {line}"));
    let number = rest.split(' ').next().unwrap_or_default().replace(',', "");
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number in {line}"))
}

#[test]
fn the_count_so_far_never_goes_down_and_lines_stay_short() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // 30! is out of reach: sweeps from each side take turns, each counting from 0 again.
    let puzzle = perm(tmp.path(), 30);
    let lines = progress_lines(&["count", "--max-profiles", "0"], &puzzle, "3.5");
    assert!(lines.len() >= 2, "{lines:?}");
    let mut before = 0.0;
    for line in &lines {
        assert!(line.len() < 120, "too long: {line}");
        assert!(!line.contains("memo"), "{line}");
        if line.contains("backbone") {
            // The sweep waits for the backbone, which says how far it got, with no time left.
            assert!(
                (line.contains(" of 900 cells checked, ")
                    || line.contains("looking for a first solution"))
                    && !line.contains("ETA"),
                "{line}"
            );
        } else if line.contains("counting two ways at once") {
            // The sweep's share done, and the time left from its pace or not yet.
            assert!(
                line.contains("% done, ") && line.contains(", ETA "),
                "{line}"
            );
        }
        if line.contains("at least") {
            let now = at_least(line);
            assert!(now >= before, "the count went down: {lines:?}");
            before = now;
        }
    }
}

#[test]
fn an_enumeration_says_what_it_found_and_when_it_may_end() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 12);
    let lines = progress_lines(&["count", "--method", "enumerate"], &puzzle, "2.5");
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(line.len() < 120, "too long: {line}");
        assert!(line.contains("ETA "), "{line}");
        // An estimate, or the exact total once the count alongside has it (12!).
        if line.contains(" so far") {
            assert!(!line.contains('%'), "no explored fraction: {line}");
        } else {
            assert!(line.contains(" of 479,001,600 solutions ("), "{line}");
            assert!(line.contains("%), "), "{line}");
        }
    }
}

/// The `--progress=json` lines of a `count` stopped after `seconds`, each parsed (every other
/// line of standard error is the note that the time limit stopped it), and the count printed.
fn json_lines(args: &[&str], puzzle: &std::path::Path, seconds: &str) -> (Vec<Value>, u64) {
    let output = nonoenum(args)
        .args(["--progress=json", "--time-limit", seconds])
        .arg(puzzle)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let lines = stderr
        .lines()
        .filter(|line| !line.starts_with("nonoenum: time limit reached"))
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let count = stdout
        .trim()
        .strip_prefix("incomplete: at least ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {stdout}"));
    (lines, count)
}

/// `line[key]` as a number, or `None` for `null`; any other value fails the test.
fn number(line: &Value, key: &str) -> Option<f64> {
    let value = line
        .get(key)
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    match value {
        Value::Null => None,
        v => Some(
            v.as_f64()
                .unwrap_or_else(|| panic!("{key} is not a number in {line}")),
        ),
    }
}

#[test]
fn json_progress_lines_give_an_enumeration_s_figures_consistently() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 12);
    let args = ["count", "--method", "enumerate"];
    let (lines, count) = json_lines(&args, &puzzle, "2.5");
    assert!(!lines.is_empty());
    let (mut elapsed, mut found) = (0.0, 0.0);
    for line in &lines {
        assert_eq!(line["type"], "progress", "{line}");
        assert_eq!(line["label"], "puzzle 1", "{line}");
        assert!(line.get("phase").is_none(), "{line}");
        // The total counted alongside, once known, is 12!.
        assert!(
            line["total"] == Value::Null || line["total"] == "479001600",
            "{line}"
        );
        let now = number(line, "elapsed_seconds").expect("elapsed");
        assert!(now > elapsed, "{lines:?}");
        elapsed = now;
        let so_far = number(line, "found").expect("found");
        assert!(so_far >= found && so_far.fract() == 0.0, "{lines:?}");
        found = so_far;
        let estimate = ["estimate", "estimate_low", "estimate_high"].map(|k| number(line, k));
        match estimate {
            [Some(mean), Some(low), Some(high)] => {
                assert!(found <= low && low <= mean && mean <= high, "{line}");
            }
            // After one probe, which says nothing of the spread, or once more were found than
            // the whole range, the range has no high end.
            [Some(mean), Some(low), None] => assert!(found <= low && low <= mean, "{line}"),
            _ => assert_eq!(estimate, [None; 3], "{line}"),
        }
        let eta = number(line, "eta_seconds");
        let range = [
            number(line, "eta_low_seconds"),
            number(line, "eta_high_seconds"),
        ];
        assert!(eta.is_none_or(|eta| eta > 0.0), "{line}");
        if let [Some(low), Some(high)] = range {
            assert!(0.0 <= low && low <= high && high > 0.0, "{line}");
            assert!(eta.is_none_or(|eta| low <= eta && eta <= high), "{line}");
        }
        let fraction = number(line, "fraction_done");
        assert!(fraction.is_none_or(|f| (0.0..=1.0).contains(&f)), "{line}");
        assert_eq!(fraction.is_some(), eta.is_some(), "{line}");
        // The tree's share finished, while the total is not known.
        let explored = line.get("explored").and_then(Value::as_f64);
        assert_eq!(explored.is_some(), line["total"] == Value::Null, "{line}");
        assert!(explored.is_none_or(|f| (0.0..=1.0).contains(&f)), "{line}");
    }
    assert!(count as f64 >= found, "{count} < {found}");
}

#[test]
fn the_exact_total_alongside_can_be_turned_off() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 12);
    let output = nonoenum(["count", "--method", "enumerate", "--progress=json"])
        .args(["--time-limit", "2.5"])
        .arg(&puzzle)
        .env("NONOENUM_EXACT_TOTAL", "off")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<Value> = stderr
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(lines.len() >= 2, "{stderr}");
    for line in &lines {
        assert_eq!(line["total"], Value::Null, "{line}");
        assert!(line["explored"].is_number(), "{line}");
    }
}

#[test]
fn json_progress_lines_give_a_count_s_phase() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 30);
    let (lines, _) = json_lines(&["count", "--max-profiles", "0"], &puzzle, "1.5");
    assert!(!lines.is_empty());
    let mut found = 0.0;
    for line in &lines {
        assert_eq!(line["type"], "progress", "{line}");
        assert!(line["phase"].is_string(), "{line}");
        let so_far = number(line, "found").expect("found");
        assert!(so_far >= found, "the count went down: {lines:?}");
        found = so_far;
        // The sweep's share of its tree done, and the time left from its pace, where known.
        let fraction = number(line, "fraction_done");
        assert!(fraction.is_none_or(|f| (0.0..=1.0).contains(&f)), "{line}");
        let eta = number(line, "eta_seconds");
        assert!(eta.is_none_or(|eta| eta > 0.0) && (eta.is_none() || fraction.is_some()));
        assert_eq!(line["estimate"], Value::Null, "{line}");
        assert!(line.get("explored").is_none(), "{line}");
    }
}

/// A whole `count --method enumerate --progress=json` of a permutation puzzle that takes a
/// few seconds (9x9 in a debug build, 10x10 in a release build, where 9! solutions take a
/// hundredth of a second): the total counted alongside is the final count.
#[test]
fn the_exact_total_counted_alongside_an_enumeration_is_its_final_count() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (n, solutions) = if cfg!(debug_assertions) {
        (9, 362_880)
    } else {
        (10, 3_628_800)
    };
    let puzzle = perm(tmp.path(), n);
    let output = nonoenum([
        "count",
        "--method",
        "enumerate",
        "--progress=json",
        "-t",
        "2",
    ])
    .arg(&puzzle)
    .env("NONOENUM_PROGRESS_EVERY_MS", "20")
    .output()
    .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let count: u64 = String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .expect("a count");
    assert_eq!(count, solutions);
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    let mut known = false;
    for line in stderr.lines() {
        let line: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let found = number(&line, "found").expect("found");
        if let Some(total) = line["total"].as_str() {
            known = true;
            assert_eq!(total, count.to_string(), "{line}");
            assert!(found <= count as f64, "{line}");
            assert_eq!(number(&line, "estimate"), Some(count as f64), "{line}");
        } else {
            assert!(line["total"].is_null(), "{line}");
            assert!(!known, "the total went away: {stderr}");
        }
    }
    assert!(known, "the total was never shown: {stderr}");
}

#[test]
fn progress_lines_come_as_often_as_asked() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 12);
    let lines = |every: Option<&str>| {
        let mut run = nonoenum(["count", "--method", "enumerate"]);
        if let Some(ms) = every {
            run.env("NONOENUM_PROGRESS_EVERY_MS", ms);
        }
        let output = run
            .args(["--progress=json", "--time-limit", "1.5"])
            .arg(&puzzle)
            .output()
            .expect("runs");
        assert_eq!(output.status.code(), Some(3), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        stderr.lines().filter(|l| l.starts_with('{')).count()
    };
    // Every second by default: one line in 1.5 s (and the last); every 100 ms: many more.
    let (default, fine) = (lines(None), lines(Some("100")));
    assert!(default <= 3, "{default} lines a second");
    assert!(fine >= 6, "{fine} lines every 100 ms in 1.5 s");
    // Not a number: the default.
    assert!(lines(Some("often")) <= 3);
}

/// Checkpointed runs show their progress: the parts done and the solutions saved, in JSON
/// lines too, and `resume` and `list` take `--progress` as `count` does.
#[test]
fn checkpointed_runs_show_progress() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 7);
    let checkpoint = tmp.path().join("run.ckpt");
    let output = nonoenum(["count", "--method", "enumerate", "--progress=json"])
        .arg("--checkpoint")
        .args([&checkpoint, &puzzle])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last: Value = (stderr.lines().filter_map(|l| serde_json::from_str(l).ok()))
        .next_back()
        .unwrap_or_else(|| panic!("no JSON line in {stderr}"));
    assert_eq!(last["found"], 5040, "{last}");
    assert_eq!(last["committed"], "5040", "{last}");
    assert!(last["parts"].as_u64().is_some_and(|p| p >= 64), "{last}");
    assert_eq!(last["parts_done"], last["parts"], "{last}");
    let resumed = nonoenum(["resume", "--progress"])
        .arg(&checkpoint)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(stderr.contains("5,040 found, 5,040 saved, "), "{stderr}");
    let listed = tmp.path().join("listed.txt");
    let list = nonoenum(["list", "--progress", "-o"])
        .args([&listed, &puzzle])
        .env("NONOENUM_PROGRESS_EVERY_MS", "10")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&list.stderr);
    let line = |l: &str| l.starts_with("puzzle 1: ") && l.contains(" solutions so far");
    assert!(stderr.lines().any(line), "{stderr}");
}

/// An enumeration that exhausts its tree ends its lines with its count, all done; one stopped
/// at a limit does not (its workers may have found more than it kept).
#[test]
fn an_ended_enumeration_s_last_line_gives_its_count() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 7);
    let run = |args: &[&str], form: &str| {
        let output = nonoenum(args)
            .arg(form)
            .arg(&puzzle)
            .output()
            .expect("runs");
        assert!(output.status.success(), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        let progress = |l: &&str| l.starts_with("puzzle 1: ") || l.starts_with('{');
        let last = stderr.lines().rfind(progress);
        last.unwrap_or_default().to_string()
    };
    let last = run(&["count", "--method", "enumerate"], "--progress");
    assert!(
        last.starts_with("puzzle 1: 5,040 solutions in all, "),
        "{last}"
    );
    assert!(last.ends_with(", done") && !last.contains("ETA"), "{last}");
    let last = run(&["list", "-o", "/dev/null"], "--progress=json");
    let last: Value = serde_json::from_str(&last).unwrap_or_else(|e| panic!("{e}: {last}"));
    assert_eq!(
        (&last["found"], &last["total"]),
        (&5040.into(), &"5040".into())
    );
    assert_eq!(
        (&last["eta_seconds"], &last["fraction_done"]),
        (&Value::Null, &1.0.into())
    );
    // Well under the second between lines, it prints none at all.
    let last = run(&["list", "-o", "/dev/null", "--limit", "3"], "--progress");
    assert!(last.is_empty(), "{last}");
}

/// With standard output and error in one file, a file of several puzzles gives each
/// puzzle's label before that puzzle's progress lines.
#[test]
fn a_puzzle_s_label_comes_before_its_progress_lines() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let both = tmp.path().join("both.txt");
    let file = std::fs::File::create(&both).expect("created");
    let status = nonoenum(["count", "--method", "enumerate", "--progress"])
        .arg(crate::common::bundled("mini-set.txt"))
        .stdout(file.try_clone().expect("cloned"))
        .stderr(file)
        .status()
        .expect("runs");
    assert!(status.success());
    let text = std::fs::read_to_string(&both).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    for label in ["$1", "$2"] {
        let at = |pick: &dyn Fn(&str) -> bool| lines.iter().position(|l| pick(l));
        let shown = at(&|l| l == label).unwrap_or_else(|| panic!("no {label}: {text}"));
        let progress = at(&|l| l.starts_with(&format!("{label}: ")));
        let progress = progress.unwrap_or_else(|| panic!("no progress of {label}: {text}"));
        assert!(shown < progress, "{text}");
    }
}
