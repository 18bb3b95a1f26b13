//! `count --per-cell`: how many solutions fill each cell (with each colour), by enumeration or
//! by profiles, the same as counting with that cell given; and what it refuses.

use tempfile::TempDir;

use crate::common;

use common::{perm, run, write};

#[test]
fn per_cell_counts_the_solutions_filling_each_cell() {
    let dir = TempDir::new().expect("temp dir");
    // 4! solutions: each cell is filled in 3! of them.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &perm(dir.path(), 4));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "6 6 6 6\n".repeat(4) + "24\n");

    // A 2x2 square, its two diagonals the only solutions, above an empty row.
    let square = write(dir.path(), "square.txt", "3 2\n1\n1\n0\n1\n1\n");
    let (code, stdout, _) = run(&["count", "-q", "--per-cell", "-t", "2"], &square);
    assert_eq!(code, 0);
    assert_eq!(stdout, "1 1\n1 1\n0 0\n2\n");

    for method in ["auto", "enumerate"] {
        let (code, stdout, _) = run(
            &[
                "count",
                "-q",
                "--per-cell",
                "--to=jsonl",
                "--method",
                method,
            ],
            &square,
        );
        assert_eq!(code, 0);
        assert!(
            stdout.contains(r#""count":"2""#)
                && stdout.contains(r#""per_cell":[["1","1"],["1","1"],["0","0"]]"#),
            "{method}: {stdout}"
        );
    }
}

/// The expected per-colour counts of the band puzzle: a cell of band `c` has colour `c` in
/// `total / m` solutions and the background in the rest.
fn band_counts(k: usize, m: usize, color: usize, row: usize) -> usize {
    let total = common::bands_total(k, m);
    match (color, row / m + 1) {
        (0, _) => total - total / m,
        (c, band) if c == band => total / m,
        _ => 0,
    }
}

#[test]
fn per_cell_counts_each_colour_of_a_colour_puzzle() {
    let dir = TempDir::new().expect("temp dir");
    let (k, m) = (3, 3);
    let total = common::bands_total(k, m);
    assert_eq!(total, 216);
    let puzzle = common::write_bands(dir.path(), k, m);
    let names = ["white", "red", "green", "blue"];
    let chars = ['.', 'a', 'b', 'c'];

    // Text: for each colour, background first, `NAME (CHAR):` and one line of counts a row.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let mut expected = String::new();
    for color in 0..=k {
        expected.push_str(&format!("{} ({}):\n", names[color], chars[color]));
        let width = (0..k * m)
            .map(|r| band_counts(k, m, color, r).to_string().len())
            .max()
            .unwrap_or(1);
        for row in 0..k * m {
            let n = band_counts(k, m, color, row);
            expected.push_str(&vec![format!("{n:>width$}"); m].join(" "));
            expected.push('\n');
        }
    }
    expected.push_str(&format!("{total}\n"));
    assert_eq!(stdout, expected);

    // JSON: `per_color`, one grid of decimal strings per colour; the colours of each cell add
    // up to the count.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell", "--to=jsonl"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let result: serde_json::Value = serde_json::from_str(stdout.trim_end()).expect("JSON");
    assert_eq!(result["count"], total.to_string());
    assert!(result.get("per_cell").is_none(), "{stdout}");
    let per_color = result["per_color"].as_array().expect("per_color");
    assert_eq!(per_color.len(), k + 1);
    let count = |color: usize, row: usize, col: usize| -> usize {
        let n = &per_color[color]["rows"][row][col];
        n.as_str()
            .expect("a decimal string")
            .parse()
            .expect("a count")
    };
    for (color, entry) in per_color.iter().enumerate() {
        assert_eq!(entry["color"], names[color]);
        assert_eq!(entry["char"], chars[color].to_string());
    }
    for row in 0..k * m {
        for col in 0..m {
            let sum: usize = (0..=k).map(|color| count(color, row, col)).sum();
            assert_eq!(sum, total, "cell ({row}, {col})");
            for color in 0..=k {
                assert_eq!(count(color, row, col), band_counts(k, m, color, row));
            }
        }
    }
}

#[test]
fn per_cell_counts_past_enumeration_by_profiles() {
    let dir = TempDir::new().expect("temp dir");
    // 20! solutions, each cell filled in 19! of them: no enumeration would finish.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &perm(dir.path(), 20));
    assert_eq!(code, 0, "{stderr}");
    let row = vec!["121645100408832000"; 20].join(" ") + "\n";
    assert_eq!(stdout, row.repeat(20) + "2432902008176640000\n");
}

#[test]
fn a_per_cell_count_stopped_by_its_time_limit_still_gives_its_statistics() {
    let dir = TempDir::new().expect("temp dir");
    // 40! solutions: per-cell profiles of C(40, 20) columns used do not finish in a second.
    let args = ["count", "--per-cell", "--stats", "--time-limit", "1"];
    let (code, _, stderr) = run(&args, &perm(dir.path(), 40));
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(" s, stopped before the count was known, at least 0 solutions counted"),
        "{stderr}"
    );
    assert!(stderr.contains("time limit reached"), "{stderr}");
}

#[test]
fn per_cell_by_profiles_enumerates_or_gives_up_when_the_layers_are_too_many() {
    let dir = TempDir::new().expect("temp dir");
    // 6 x 6 permutations: 2^6 = 64 profiles in all, over 8 x 4.
    let puzzle = perm(dir.path(), 6);
    let args = ["count", "-q", "--per-cell", "--max-profiles", "4"];
    let (code, stdout, stderr) = run(&args, &puzzle);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "120 120 120 120 120 120\n".repeat(6) + "720\n");
    let (code, _, stderr) = run(&[&args[..], &["--method", "decompose"]].concat(), &puzzle);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("per-cell counts by profiles need more than 32 profiles"),
        "{stderr}"
    );
}

#[test]
fn per_cell_refuses_what_it_cannot_do() {
    let dir = TempDir::new().expect("temp dir");
    let puzzle = perm(dir.path(), 3);
    let (code, _, stderr) = run(&["count", "--per-cell", "--no-race"], &puzzle);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "--per-cell counts by profiles or by enumerating the solutions: drop --no-race"
        ),
        "{stderr}"
    );
}

/// The block lengths of one line of a picture (`0` for an empty line).
fn blocks(cells: impl Iterator<Item = bool>) -> String {
    let mut runs = Vec::new();
    let mut run = 0;
    for filled in cells.chain(std::iter::once(false)) {
        if filled {
            run += 1;
        } else if run > 0 {
            runs.push(run.to_string());
            run = 0;
        }
    }
    if runs.is_empty() {
        "0".into()
    } else {
        runs.join(" ")
    }
}

#[test]
fn per_cell_counts_equal_counts_with_that_cell_given() {
    let picture = ["#.#..#", ".##...", "#..#.#", ".#.#..", "..#.##", "#....#"];
    let grid: Vec<Vec<bool>> = picture
        .iter()
        .map(|r| r.chars().map(|c| c == '#').collect())
        .collect();
    let (h, w) = (grid.len(), grid[0].len());
    let mut text = format!("{h} {w}\n");
    for row in &grid {
        text += &(blocks(row.iter().copied()) + "\n");
    }
    for c in 0..w {
        text += &(blocks(grid.iter().map(|row| row[c])) + "\n");
    }
    let dir = TempDir::new().expect("temp dir");
    let puzzle = write(dir.path(), "ambiguous.txt", &text);
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let total: u64 = lines[h].parse().expect("count");
    assert!(
        total > 1,
        "the picture should be ambiguous: {total} solutions"
    );
    for (r, line) in lines[..h].iter().enumerate() {
        let counts: Vec<u64> = line
            .split_whitespace()
            .map(|n| n.parse().expect("number"))
            .collect();
        assert_eq!(counts.len(), w);
        for (c, &count) in counts.iter().enumerate() {
            let givens = write(dir.path(), "givens.txt", &format!("{} {}\n", r + 1, c + 1));
            let given = givens.display().to_string();
            let (_, stdout, _) = run(
                &["count", "-q", "--method", "enumerate", "--givens", &given],
                &puzzle,
            );
            assert_eq!(
                stdout.trim().parse::<u64>().ok(),
                Some(count),
                "cell ({r}, {c})"
            );
        }
    }
}

/// A 4 x `2k` colour puzzle of `k` 2x2 squares side by side above `k` more, each with one
/// diagonal of its colour (red and blue alternating above, green and yellow below), either
/// diagonal: `4^k` solutions, each square's cell holding its colour in half of them.
fn write_diagonals(dir: &std::path::Path, k: usize) -> std::path::PathBuf {
    let top = |i: usize| ['r', 'u'][i % 2];
    let bottom = |i: usize| ['g', 'y'][i % 2];
    let line = |colour: &dyn Fn(usize) -> char| {
        let blocks: Vec<String> = (0..k).map(|i| format!("1{}", colour(i))).collect();
        blocks.join(" ") + "\n"
    };
    let mut text = format!(
        "diagonals {k}\n#d\n   0:   #FFFFFF   white\n   r:r  #FF0000   red\n   \
         u:u  #0000FF   blue\n   g:g  #00AA00   green\n   y:y  #FFAA00   yellow\n: rows\n"
    );
    text += &(line(&top).repeat(2) + &line(&bottom).repeat(2) + ": columns\n");
    for col in 0..2 * k {
        text += &format!("1{} 1{}\n", top(col / 2), bottom(col / 2));
    }
    write(dir, &format!("diagonals-{k}.g"), &text)
}

#[test]
fn colour_per_cell_counts_by_profiles_are_those_of_enumeration() {
    let dir = TempDir::new().expect("temp dir");
    let bands = common::write_bands(dir.path(), 3, 3);
    for puzzle in [write_diagonals(dir.path(), 3), bands] {
        let per_colour = |method: &str| {
            let args = [
                "count",
                "-q",
                "--per-cell",
                "--to=jsonl",
                "--method",
                method,
            ];
            let (code, stdout, stderr) = run(&args, &puzzle);
            assert_eq!(code, 0, "{method}: {stderr}");
            let result: serde_json::Value = serde_json::from_str(stdout.trim_end()).expect("JSON");
            (result["count"].clone(), result["per_color"].clone())
        };
        let (count, counts) = per_colour("decompose");
        assert!(counts.is_array(), "{counts}");
        assert_eq!((count, counts), per_colour("enumerate"), "{puzzle:?}");
    }
}

#[test]
fn colour_per_cell_counts_past_enumeration_by_profiles() {
    let dir = TempDir::new().expect("temp dir");
    // 4^24 = 2^48 solutions, some 2.8e14: no enumeration would finish.
    let puzzle = write_diagonals(dir.path(), 24);
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let half = (1u64 << 47).to_string();
    let row = vec![half.as_str(); 48].join(" ") + "\n";
    let mut expected = "white (.):\n".to_string() + &row.repeat(4);
    for (name, ch, rows) in [
        ("red", 'r', [true, true, false, false]),
        ("blue", 'u', [true, true, false, false]),
        ("green", 'g', [false, false, true, true]),
        ("yellow", 'y', [false, false, true, true]),
    ] {
        expected += &format!("{name} ({ch}):\n");
        let own = if ch == 'r' || ch == 'g' { 0 } else { 1 };
        for in_band in rows {
            let cells: Vec<String> = (0..48)
                .map(|col| match in_band && (col / 2) % 2 == own {
                    true => format!("{half:>15}"),
                    false => format!("{:>15}", 0),
                })
                .collect();
            expected += &(cells.join(" ") + "\n");
        }
    }
    expected += &format!("{}\n", 1u64 << 48);
    assert_eq!(stdout, expected);
}
