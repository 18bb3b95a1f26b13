//! `--ordered`: the same solutions in the same order, byte for byte, whatever the number of
//! threads, and the order is that of the one-thread search. Also with `--to jsonl`, `-o`,
//! `--limit`, a time limit (a prefix of the full listing), `solve`, a
//! checkpointed run, and a split whose parts are merged. Counts agree for every thread count.

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common::{BUNDLED, nonoenum, perm as permutation, stdout_of};

const THREADS: [&str; 4] = ["1", "2", "3", "8"];

/// Standard output of a run that must succeed.
fn stdout(args: &[&str]) -> String {
    stdout_of(&mut nonoenum(args))
}

/// `k` x `k` separate 2x2 squares, each holding one diagonal (clues `1 1 ... 1`, a blank line
/// between squares): `2^(k*k)` solutions, a tree that splits evenly everywhere.
fn diagonals(dir: &Path, k: usize) -> PathBuf {
    let n = 3 * k - 1;
    let mut text = format!("{n} {n}\n");
    for _ in 0..2 {
        for line in 0..n {
            let clue = if line % 3 == 2 {
                "0".to_string()
            } else {
                vec!["1"; k].join(" ")
            };
            text.push_str(&clue);
            text.push('\n');
        }
    }
    let path = dir.join(format!("diagonals{k}.txt"));
    std::fs::write(&path, text).expect("write");
    path
}

/// The clues of a 10x10 random picture (density 0.3): 304 solutions, an irregular tree.
fn scattered(dir: &Path) -> PathBuf {
    let rows = [
        "##.##....#",
        ".####....#",
        ".....#...#",
        ".#........",
        "....#..##.",
        "#....#.#.#",
        ".....###..",
        "#.#.#.....",
        "##......##",
        ".#...###..",
    ];
    let picture: Vec<Vec<bool>> = rows
        .iter()
        .map(|r| r.bytes().map(|b| b == b'#').collect())
        .collect();
    let clue = |cells: Vec<bool>| {
        let runs: Vec<String> = cells
            .split(|&filled| !filled)
            .filter(|run| !run.is_empty())
            .map(|run| run.len().to_string())
            .collect();
        if runs.is_empty() {
            "0".to_string()
        } else {
            runs.join(" ")
        }
    };
    let mut text = String::from("10 10\n");
    for row in &picture {
        text += &clue(row.clone());
        text.push('\n');
    }
    for col in 0..10 {
        text += &clue(picture.iter().map(|row| row[col]).collect());
        text.push('\n');
    }
    let path = dir.join("scattered.txt");
    std::fs::write(&path, text).expect("write");
    path
}

/// The grids of a `list` output.
fn grids(listing: &str) -> Vec<&str> {
    listing
        .split("\n\n")
        .map(|g| g.trim_end_matches('\n'))
        .filter(|g| !g.is_empty())
        .collect()
}

/// The `solution` lines of a `--json` output, and its `result` lines without their timing.
fn json_without_seconds(output: &str) -> String {
    output
        .lines()
        .map(|line| match line.find(r#","seconds":"#) {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_thread_count_counts_alike_and_lists_in_the_one_thread_order() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzles = [
        format!("{BUNDLED}/ambiguous.txt"),
        format!("{BUNDLED}/mini-set.txt"),
        permutation(tmp.path(), 7).display().to_string(),
        diagonals(tmp.path(), 3).display().to_string(),
        scattered(tmp.path()).display().to_string(),
    ];
    let mut sizes = Vec::new();
    for puzzle in &puzzles {
        let sequential = stdout(&["list", "-q", "-t", "1", puzzle]);
        let json = json_without_seconds(&stdout(&["list", "-q", "--to=jsonl", "-t", "1", puzzle]));
        let count = stdout(&["count", "-q", "-t", "1", puzzle]);
        for threads in THREADS {
            let listed = stdout(&["list", "-q", "--ordered", "-t", threads, puzzle]);
            assert!(
                listed == sequential,
                "{puzzle}, {threads} threads: the listing differs"
            );
            let counted = stdout(&["count", "-q", "-t", threads, puzzle]);
            assert_eq!(counted, count, "{puzzle}, {threads} threads");
        }
        let listed = stdout(&["list", "-q", "--to=jsonl", "--ordered", "-t", "8", puzzle]);
        assert!(
            json_without_seconds(&listed) == json,
            "{puzzle}: the JSON listing differs"
        );
        sizes.push(grids(&sequential).len());
    }
    // (mini-set.txt's listing holds labels, so its grids are not counted this way.)
    assert_eq!(
        [sizes[0], sizes[2], sizes[3], sizes[4]],
        [11, 5040, 512, 304]
    );
}

#[test]
fn limits_keep_the_first_solutions_in_order() {
    let tmp = TempDir::new().expect("temp dir");
    let perm = permutation(tmp.path(), 7);
    let perm = perm.to_str().expect("path");
    let all = stdout(&["list", "-q", "-t", "1", perm]);
    let all = grids(&all);
    for threads in ["2", "3", "8"] {
        for (option, n) in [("--limit", 1), ("--limit", 250), ("--limit", 1000)] {
            let listed = stdout(&[
                "list",
                "-q",
                "--ordered",
                "-t",
                threads,
                option,
                &n.to_string(),
                perm,
            ]);
            assert!(
                grids(&listed) == all[..n],
                "{threads} threads, {option} {n}: not the first {n} solutions"
            );
        }
        let solved = stdout(&["solve", "-q", "--ordered", "-t", threads, perm]);
        assert_eq!(
            solved,
            format!("{}\nmultiple\n", all[0]),
            "{threads} threads"
        );
        let file = tmp.path().join(format!("list-{threads}.txt"));
        let file_arg = file.to_str().expect("path");
        let printed = stdout(&[
            "list",
            "-q",
            "--ordered",
            "-t",
            threads,
            "--output",
            file_arg,
            perm,
        ]);
        assert_eq!(printed, "");
        let written = std::fs::read_to_string(&file).expect("the output file");
        assert!(
            grids(&written) == all,
            "{threads} threads: --output differs"
        );
    }
}

#[test]
fn a_listing_stopped_by_the_time_limit_is_a_prefix_of_the_full_one() {
    let tmp = TempDir::new().expect("temp dir");
    // 12! solutions: no run finishes within the limit.
    let perm = permutation(tmp.path(), 12);
    let perm = perm.to_str().expect("path");
    let output = nonoenum([
        "list",
        "-q",
        "--ordered",
        "-t",
        "3",
        "--time-limit",
        "0.5",
        perm,
    ])
    .output()
    .expect("the binary runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let listed = String::from_utf8(output.stdout).expect("UTF-8");
    let n = grids(&listed).len();
    assert!(n > 0, "nothing listed in half a second");
    let limit = n.to_string();
    let first = stdout(&[
        "list",
        "-q",
        "--ordered",
        "-t",
        "1",
        "--limit",
        &limit,
        perm,
    ]);
    assert!(
        listed == first,
        "the {n} solutions listed are not the first {n}"
    );
}

#[test]
fn checkpointed_and_split_listings_keep_the_one_thread_order() {
    let tmp = TempDir::new().expect("temp dir");
    let perm = permutation(tmp.path(), 7);
    let perm = perm.to_str().expect("path");
    // A checkpointed run lists its parts one after the other, in search order: as the
    // ordered search lists, with each strategy.
    let ckpt = tmp.path().join("run.ckpt");
    for strategy in ["auto", "probe", "plain"] {
        let all = stdout(&["list", "-q", "--ordered", "--strategy", strategy, perm]);
        let file = tmp.path().join(format!("checkpointed-{strategy}.txt"));
        let (file_arg, ckpt_arg) = (file.to_str().expect("path"), ckpt.to_str().expect("path"));
        let _ = stdout(&[
            "list",
            "-q",
            "--ordered",
            "--strategy",
            strategy,
            "-t",
            "3",
            "--checkpoint",
            ckpt_arg,
            "--output",
            file_arg,
            perm,
        ]);
        let written = std::fs::read_to_string(&file).expect("the output file");
        assert!(
            written == all,
            "the checkpointed listing differs ({strategy})"
        );
        std::fs::remove_file(&ckpt).expect("removed");
    }

    // A split numbers its parts in search order: their one-thread listings, merged, are the
    // whole listing, as the search that probes at every node lists it.
    let all = stdout(&["list", "-q", "-t", "1", "--strategy", "probe", perm]);
    let dir = tmp.path().join("split");
    let dir_arg = dir.to_str().expect("path");
    let refused = nonoenum(["split", "-q", "--ordered", "-o", dir_arg, perm])
        .output()
        .expect("the binary runs");
    assert_eq!(refused.status.code(), Some(2));
    let _ = stdout(&["split", "-q", "--parts", "12", "-o", dir_arg, perm]);
    std::fs::create_dir(dir.join("results")).expect("mkdir");
    let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the split folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    parts.sort();
    assert!(parts.len() >= 12, "{} parts", parts.len());
    for part in &parts {
        let result = stdout(&[
            "list",
            "-q",
            "--to=jsonl",
            "-t",
            "1",
            "--strategy",
            "probe",
            part.to_str().expect("path"),
        ]);
        let stem = part.file_stem().expect("stem").to_str().expect("name");
        std::fs::write(dir.join("results").join(format!("{stem}.json")), result).expect("write");
    }
    let merged = stdout(&["merge", "--list", dir_arg]);
    assert!(merged == all, "the merged listing differs");
}
