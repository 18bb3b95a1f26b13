//! The command line's surface: each command accepts exactly the options it uses, under the
//! same names everywhere (old spellings still work, hidden); short help fits a screen and ends
//! with an example; output composes (a solution written as a puzzle reads back, several
//! solutions make one XML or JSON document); exit codes and error prefixes mean the same in
//! every command; completions and the manual page generate.

use std::path::Path;
use std::process::Output;

use crate::common::{OutputAssertExt, bundled, nonoenum, stdout_of};

/// Runs `nonoenum` with `args`.
fn run(args: &[&str]) -> Output {
    nonoenum(args).output().expect("the binary runs")
}

/// Standard output of a run that must succeed.
fn stdout(args: &[&str]) -> String {
    stdout_of(&mut nonoenum(args))
}

/// The commands and the options each shows in its help (besides `-h`).
const OPTIONS: &[(&str, &[&str])] = &[
    (
        "solve",
        &[
            "--format",
            "--puzzle",
            "--givens",
            "--threads",
            "--quiet",
            "--stats",
            "--time-limit",
            "--strategy",
            "--ordered",
            "--to",
            "--output",
            "--output-dir",
            "--color",
        ],
    ),
    (
        "count",
        &[
            "--format",
            "--puzzle",
            "--givens",
            "--threads",
            "--quiet",
            "--stats",
            "--time-limit",
            "--strategy",
            "--method",
            "--per-cell",
            "--progress",
            "--limit",
            "--to",
            "--checkpoint",
        ],
    ),
    (
        "list",
        &[
            "--format",
            "--puzzle",
            "--givens",
            "--threads",
            "--quiet",
            "--stats",
            "--time-limit",
            "--strategy",
            "--limit",
            "--ordered",
            "--progress",
            "--to",
            "--output",
            "--output-dir",
            "--color",
            "--checkpoint",
        ],
    ),
    (
        "resume",
        &["--threads", "--quiet", "--progress", "--time-limit"],
    ),
    (
        "split",
        &[
            "--format",
            "--puzzle",
            "--givens",
            "--parts",
            "--output",
            "--quiet",
            "--time-limit",
        ],
    ),
    ("merge", &["--list", "--to", "--quiet"]),
    (
        "convert",
        &["--to", "--output", "--format", "--puzzle", "--quiet"],
    ),
    (
        "make",
        &[
            "--to",
            "--output",
            "--limit",
            "--threads",
            "--quiet",
            "--time-limit",
        ],
    ),
    ("completions", &[]),
    ("man", &[]),
    ("help", &[]),
];

/// The long options a help text lists (`--name`, at the start of an entry; `--name=VALUE`
/// and `--name[=VALUE]` are `--name`).
fn listed_options(help: &str) -> Vec<String> {
    help.lines()
        .map(str::trim_start)
        .filter(|line| line.starts_with('-'))
        .filter_map(|line| {
            line.split([' ', ','])
                .find(|word| word.starts_with("--"))
                .map(|word| word.split(['=', '[']).next().unwrap_or(word).to_string())
        })
        .filter(|name| name != "--help" && name != "--version")
        .collect()
}

#[test]
fn every_command_lists_exactly_its_options_under_the_same_names() {
    let top = stdout(&["--help"]);
    for (command, options) in OPTIONS {
        assert!(top.contains(&format!("  {command} ")), "{top}");
        let long = stdout(&[command, "--help"]);
        let mut listed = listed_options(&long);
        listed.sort();
        let mut expected: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        expected.sort();
        assert_eq!(listed, expected, "{command} --help");
        // The short names are the same wherever the option is.
        for (short, long_name) in [("-q, --quiet", "--quiet"), ("-t, --threads", "--threads")] {
            assert_eq!(
                long.contains(short),
                options.contains(&long_name),
                "{command}: {short}"
            );
        }
        let output_is_a_path = ["solve", "list", "split", "convert", "make"].contains(command);
        assert_eq!(long.contains("-o, --output"), output_is_a_path, "{command}");
    }
}

#[test]
fn short_help_fits_a_screen_and_ends_with_an_example() {
    let knobs = [
        "--max-profiles",
        "--sweep-memory",
        "--cache-memory",
        "--no-race",
        "--no-completion-checks",
        "--backbone-after",
        "--no-backbone",
        "--sweep-from",
        "--no-probe",
        "--restarts",
        "--engine",
        "--checkpoint-every",
        "--json",
        "--output-format",
        "--max-solutions",
    ];
    for (command, _) in OPTIONS {
        let short = stdout(&[command, "-h"]);
        let lines = short.lines().count();
        assert!(lines <= 40, "{command} -h: {lines} lines\n{short}");
        let last = short.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("  nonoenum ") || last.starts_with("  scripts/"),
            "{command} -h ends with {last:?}"
        );
        let long = stdout(&[command, "--help"]);
        for knob in knobs {
            assert!(!long.contains(knob), "{command} --help shows {knob}");
        }
    }
    // `help` is a command like the others, with a help of its own.
    assert!(stdout(&["help", "--help"]).contains("Usage: nonoenum help"));
    assert!(stdout(&["help", "count"]).contains("Usage: nonoenum count"));
    assert_eq!(run(&["help", "nope"]).status.code(), Some(2));
}

/// Every command, and the tool itself (`None`).
const COMMANDS: &[Option<&str>] = &[
    None,
    Some("solve"),
    Some("count"),
    Some("list"),
    Some("resume"),
    Some("split"),
    Some("merge"),
    Some("convert"),
    Some("make"),
    Some("completions"),
    Some("man"),
    Some("help"),
];

#[test]
fn every_help_fits_80_columns() {
    for &command in COMMANDS {
        let mut asks: Vec<Vec<&str>> = ["-h", "--help"]
            .iter()
            .map(|flag| command.into_iter().chain([*flag]).collect())
            .collect();
        asks.push(std::iter::once("help").chain(command).collect());
        for args in asks {
            let assert = nonoenum(&args).assert().success();
            let help = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
            for line in help.lines() {
                let columns = line.chars().count();
                assert!(
                    columns <= 80,
                    "{args:?}: a line of {columns} columns: {line:?}"
                );
            }
        }
    }
}

#[test]
fn help_offers_only_what_a_command_accepts() {
    // `solve` refuses `--to compact` and `count` refuses `--strategy restarts`: their help
    // does not offer them, while `list`'s and `solve`'s do.
    let solve = stdout(&["solve", "--help"]);
    assert!(
        !solve.contains("compact"),
        "solve --help offers compact:\n{solve}"
    );
    assert!(stdout(&["list", "--help"]).contains("compact"));
    let count = stdout(&["count", "--help"]);
    assert!(
        !count.contains("restarts"),
        "count --help offers restarts:\n{count}"
    );
    assert!(solve.contains("- restarts:"));
    assert_eq!(
        run(&["count", "--strategy", "restarts", &bundled("heart.txt")])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn a_flag_a_command_would_ignore_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path().join("d");
    let d = d.to_str().expect("UTF-8");
    let ck = dir.path().join("c.json");
    let ck = ck.to_str().expect("UTF-8");
    let heart = bundled("heart.txt");
    let h = heart.as_str();
    let cases: &[&[&str]] = &[
        &["split", "--checkpoint", ck, "-o", d, h],
        &["split", "--json", "-o", d, h],
        &["split", "--stats", "-o", d, h],
        &["split", "--output-dir", "zz", "-o", d, h],
        &["split", "-t", "2", "-o", d, h],
        &["count", "--to", "svg", h],
        &["count", "--output-dir", d, h],
        &["count", "--ordered", h],
        &["count", "--color", "always", h],
        &["count", "--strategy", "restarts", h],
        &["count", "--method", "decompose", "--strategy", "learn", h],
        &["count", "--checkpoint-every", "2", h],
        &["solve", "--checkpoint", ck, h],
        &["solve", "--limit", "2", h],
        &["solve", "--progress", h],
        &["list", "--to", "json", "--output-dir", d, h],
        &["list", "--to", "json", "--color", "always", h],
        &["list", "--checkpoint", ck, "-o", d, "--stats", h],
        &["list", "-o", d, "--output-dir", d, h],
        &["merge", "--stats", d],
        &["merge", "--threads", "2", d],
        &["convert", "--threads", "2", "--to", "non", h],
        &["convert", "--givens", h, "--to", "non", h],
        &["make", "--stats", h],
        &["resume", "--stats", ck],
        &["resume", "--ordered", ck],
    ];
    for args in cases {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(!Path::new(d).exists(), "a refused run made its folder");
}

#[test]
fn old_spellings_still_work() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ambiguous = bundled("ambiguous.txt");
    let a = ambiguous.as_str();
    let heart = bundled("heart.txt");
    let jsonl = stdout(&["list", "-q", "-t", "1", "--limit", "1", "--to", "jsonl", a]);
    for (old, new) in [
        (
            &["list", "-q", "-t", "1", "--max-solutions", "1", a][..],
            &["list", "-q", "-t", "1", "--limit", "1", a][..],
        ),
        (
            &["count", "-q", "--max-solutions", "3", a],
            &["count", "-q", "--limit", "3", a],
        ),
        (
            &["count", "-q", "--json", a],
            &["count", "-q", "--to", "jsonl", a],
        ),
        (
            &["solve", "-q", "--output-format", "xml", &heart],
            &["solve", "-q", "--to", "xml", &heart],
        ),
        (
            &["list", "-q", "-t", "1", "--engine", "probe", a],
            &["list", "-q", "-t", "1", "--strategy", "probe", a],
        ),
        (
            &["list", "-q", "-t", "1", "--no-probe", a],
            &["list", "-q", "-t", "1", "--strategy", "plain", a],
        ),
        (
            &["solve", "-q", "--restarts", &heart],
            &["solve", "-q", "--strategy", "restarts", &heart],
        ),
    ] {
        let (old_out, new_out) = (stdout(old), stdout(new));
        let same = |s: &str| s.split("\"seconds\"").next().unwrap_or(s).to_string();
        assert_eq!(same(&old_out), same(&new_out), "{old:?}");
    }
    let json_lines = stdout(&["list", "-q", "-t", "1", "--limit", "1", "--json", a]);
    assert_eq!(json_lines.lines().count(), jsonl.lines().count());
    let out = dir.path().join("out.non");
    let out = out.to_str().expect("UTF-8");
    let _ = stdout(&["convert", &bundled("heart.txt"), "--to", "non", out]);
    assert!(
        std::fs::read_to_string(out)
            .expect("converted")
            .contains("rows")
    );
    let parts = dir.path().join("parts");
    let output = run(&[
        "split",
        "-q",
        "--parts",
        "2",
        "--out",
        parts.to_str().expect("UTF-8"),
        a,
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(parts.join("manifest.json").exists());
}

#[test]
fn a_solution_written_as_a_puzzle_reads_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The file holds the clues, with the solution as their goal: it counts as the puzzle does.
    for (format, puzzle, count) in [
        ("non", "heart.txt", "1\n"),
        ("xml", "flag.g", "1\n"),
        ("xml", "ambiguous.txt", "11\n"),
    ] {
        let output = run(&["solve", "--to", format, &bundled(puzzle)]);
        assert!(output.status.success(), "{output:?}");
        // The verdict is on standard error, not in the file.
        let verdict = String::from_utf8_lossy(&output.stderr);
        assert!(
            verdict.contains("unique") || verdict.contains("multiple"),
            "{verdict}"
        );
        let file = dir.path().join(format!("s.{format}"));
        std::fs::write(&file, &output.stdout).expect("write");
        let counted = stdout(&["count", "-q", file.to_str().expect("UTF-8")]);
        assert_eq!(counted, count, "{puzzle} as {format}");
    }
    // -o writes the same file as a redirection.
    let file = dir.path().join("o.non");
    let file = file.to_str().expect("UTF-8");
    let _ = stdout(&[
        "solve",
        "-q",
        "--to",
        "non",
        "-o",
        file,
        &bundled("heart.txt"),
    ]);
    assert_eq!(stdout(&["count", "-q", file]), "1\n");
    // A text solution ends with its verdict, on standard output.
    assert!(stdout(&["solve", "-q", &bundled("heart.txt")]).ends_with("\nunique\n"));
}

#[test]
fn several_solutions_make_one_document() {
    let ambiguous = bundled("ambiguous.txt");
    let a = ambiguous.as_str();
    let xml = stdout(&["list", "-q", "--to", "xml", "--limit", "2", a]);
    assert_eq!(xml.matches("<?xml").count(), 1, "{xml}");
    assert_eq!(xml.matches("<puzzleset>").count(), 1, "{xml}");
    assert_eq!(xml.matches("<puzzle ").count(), 2, "{xml}");
    // The set reads back: two puzzles, each with one solution (its goal fixes no cell, so
    // each has the 11 solutions of the clues).
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("two.xml");
    std::fs::write(&file, &xml).expect("write");
    let counts = stdout(&["count", "-q", file.to_str().expect("UTF-8")]);
    assert_eq!(counts, "puzzle 1\n11\npuzzle 2\n11\n");
    for command in [
        &["list", "-q", "--to", "json", a][..],
        &["count", "-q", "--to", "json", a],
        &["solve", "-q", "--to", "json", &bundled("mini-set.txt")],
    ] {
        let json = stdout(command);
        let value: serde_json::Value = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("{command:?}: not one JSON document ({e}): {json}"));
        let objects = value.as_array().expect("an array");
        let last = objects.last().expect("a result");
        assert_eq!(last["type"], "result", "{command:?}");
    }
    let listed = stdout(&["list", "-q", "--to", "json", a]);
    let value: serde_json::Value = serde_json::from_str(&listed).expect("JSON");
    assert_eq!(
        value.as_array().map(Vec::len),
        Some(12),
        "11 solutions and a result"
    );
}

#[test]
fn exit_codes_mean_the_same_in_every_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let none = dir.path().join("none.txt");
    std::fs::write(&none, "2 2\n2\n0\n2\n0\n").expect("write");
    let none = none.to_str().expect("UTF-8");
    let diagonal = dir.path().join("diagonal.pbm");
    std::fs::write(&diagonal, "P1\n2 2\n1 0\n0 1\n").expect("write");
    let perm = dir.path().join("perm12.txt");
    std::fs::write(&perm, format!("12 12\n{}", "1\n".repeat(24))).expect("write");
    let perm = perm.to_str().expect("UTF-8");
    let heart = bundled("heart.txt");
    let ambiguous = bundled("ambiguous.txt");
    let cases: &[(&[&str], i32)] = &[
        // 0: the command ran to completion, whatever the answer.
        (&["solve", "-q", &heart], 0),
        (&["solve", "-q", &ambiguous], 0),
        (&["count", "-q", &ambiguous], 0),
        (&["list", "-q", "--limit", "2", &ambiguous], 0),
        (&["make", "-q", diagonal.to_str().expect("UTF-8")], 0),
        // 1: no solution.
        (&["solve", "-q", none], 1),
        (&["count", "-q", none], 1),
        (&["list", "-q", none], 1),
        // 2: bad usage (clap) or bad input (ours).
        (&["solve", "--no-such-option", &heart], 2),
        (&["solve", "-q", "no-such-file.txt"], 2),
        (&["convert", "--to", "svg", &heart], 2),
        // 3: the time limit left an answer unknown.
        (
            &[
                "count",
                "-q",
                "--method",
                "enumerate",
                "--time-limit",
                "0.2",
                perm,
            ],
            3,
        ),
    ];
    for (args, code) in cases {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(*code), "{args:?}: {stderr}");
        if *code == 2 {
            assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn completions_and_the_manual_page_generate() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        assert!(
            script.contains("nonoenum") && script.contains("time-limit"),
            "{shell}"
        );
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
    let page = stdout(&["man"]);
    assert!(page.contains(".TH nonoenum 1"), "{page}");
    assert!(page.contains("solve"), "{page}");
    let page = stdout(&["man", "count"]);
    assert!(page.contains(".TH nonoenum-count 1"), "{page}");
    assert!(page.contains("per\\-cell"), "{page}");
    assert_eq!(run(&["man", "nope"]).status.code(), Some(2));
}

#[test]
fn colour_solutions_in_terminal_colours() {
    let flag = bundled("flag.g");
    let coloured = stdout(&["solve", "-q", "--color", "always", &flag]);
    let mut lines = coloured.lines();
    let legend = lines.next().expect("a legend");
    assert!(
        legend.contains("red") && legend.contains("blue"),
        "{legend}"
    );
    assert!(coloured.contains("\x1b[97;48;2;0;0;255m@@"), "{coloured:?}");
    assert!(coloured.ends_with("\x1b[0m\nunique\n"), "{coloured:?}");
    // Into a pipe, or with --color never: plain characters.
    let plain = "@@****\n@@****\n******\nunique\n";
    assert_eq!(stdout(&["solve", "-q", &flag]), plain);
    assert_eq!(stdout(&["solve", "-q", "--color", "never", &flag]), plain);
}

#[test]
fn solution_files_are_numbered_to_sort() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("pictures");
    let _ = stdout(&[
        "list",
        "-q",
        "--to",
        "svg",
        "--output-dir",
        out.to_str().expect("UTF-8"),
        &bundled("ambiguous.txt"),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=11).map(|n| format!("solution-{n:02}.svg")).collect();
    assert_eq!(names, expected);
}

#[test]
fn a_misnamed_file_names_format() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("x.g");
    std::fs::write(&file, "2 2\n1\n1\n1\n1\n").expect("write");
    let output = run(&["count", file.to_str().expect("UTF-8")]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--format plain"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let fixed = stdout(&["count", "--format", "plain", file.to_str().expect("UTF-8")]);
    assert_eq!(fixed, "2\n");
}
