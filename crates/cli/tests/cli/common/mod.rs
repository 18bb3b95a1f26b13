//! Helpers shared by the CLI tests: running the binary, bundled and temporary puzzle files, and
//! a colour puzzle whose solutions are known by construction.
#![allow(dead_code, reason = "each test binary uses only some of these")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// `.assert()` on a [`Command`] or its [`Output`], for the tests that check with assert_cmd.
pub(crate) use assert_cmd::prelude::OutputAssertExt;
use tempfile::TempDir;

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_nonoenum");

/// The `puzzles/` folder.
pub(crate) const BUNDLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../puzzles");

/// `nonoenum` with arguments: the one way the tests run the binary. A plain
/// [`std::process::Command`], so a test may set its environment and folder, spawn it or
/// `.assert()` it; [`Run`] adds standard input and a time limit, [`signalled`] a signal.
pub(crate) fn nonoenum<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut cmd = Command::new(BIN);
    let _ = cmd.args(args);
    cmd
}

/// Ways to run a command that [`Command`] lacks.
pub(crate) trait Run {
    /// Runs it with `input` on standard input; its output.
    fn with_stdin(&mut self, input: impl Into<Vec<u8>>) -> Output;
    /// Runs it, killed if it is still going after `limit`; its output.
    fn within(&mut self, limit: Duration) -> Output;
    /// Starts it with standard output and error piped (read by `wait_with_output`).
    fn spawn_piped(&mut self) -> Child;
}

impl Run for Command {
    fn with_stdin(&mut self, input: impl Into<Vec<u8>>) -> Output {
        let mut child = self.stdin(Stdio::piped()).spawn_piped();
        let mut stdin = child.stdin.take().expect("piped standard input");
        let input = input.into();
        // A thread writes, so that a run which stops reading early cannot block the test.
        let writer = std::thread::spawn(move || stdin.write_all(&input));
        let output = child.wait_with_output().expect("the binary ends");
        let _ = writer.join().expect("the writer ends");
        output
    }

    fn within(&mut self, limit: Duration) -> Output {
        let mut child = self.spawn_piped();
        // Threads drain the pipes meanwhile: a run that fills one must not stall until killed.
        let stdout = read_all(child.stdout.take().expect("piped standard output"));
        let stderr = read_all(child.stderr.take().expect("piped standard error"));
        let deadline = Instant::now() + limit;
        while child.try_wait().expect("wait").is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        Output {
            status: child.wait().expect("the binary ends"),
            stdout: stdout.join().expect("the reader ends"),
            stderr: stderr.join().expect("the reader ends"),
        }
    }

    fn spawn_piped(&mut self) -> Child {
        self.stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts")
    }
}

/// Reads `pipe` to its end on a thread of its own.
fn read_all(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Starts `cmd`, sends it `signal` (`-INT`, `-TERM`) with `kill` after `after`, and waits for
/// it: its output, whether the signal was sent (not when the run had already ended) and how
/// long the run took to end after it.
pub(crate) fn signalled(
    cmd: &mut Command,
    signal: &str,
    after: Duration,
) -> (Output, bool, Duration) {
    let child = cmd.spawn_piped();
    std::thread::sleep(after);
    let sent = Instant::now();
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    let output = child.wait_with_output().expect("the binary ends");
    (output, killed.success(), sent.elapsed())
}

/// Standard output of a run that must succeed (its standard error in the panic if not).
pub(crate) fn stdout_of(cmd: &mut Command) -> String {
    let output = cmd.output().expect("the binary runs");
    assert!(
        output.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Runs `args` and checks the failure: exit code 2, nothing on standard output and one line on
/// standard error that contains every one of `needles`.
pub(crate) fn assert_bad_input(args: &[&str], needles: &[&str]) {
    let output = nonoenum(args).output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        output.stdout.is_empty(),
        "{args:?}: stdout {:?}",
        output.stdout
    );
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr:?}");
    assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    for needle in needles {
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle:?} not in {stderr:?}"
        );
    }
}

/// A bundled puzzle file.
pub(crate) fn bundled(name: &str) -> String {
    Path::new(BUNDLED).join(name).display().to_string()
}

/// A temporary folder holding one file with `contents`; returns the folder (keep it alive) and
/// the file's path.
pub(crate) fn temp_file(name: &str, contents: impl AsRef<[u8]>) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(name);
    std::fs::write(&path, contents).expect("write the temporary file");
    (dir, path)
}

/// The IN (and OUT) characters of the band puzzles' colours, in band order.
pub(crate) const BAND_CHARS: [char; 4] = ['a', 'b', 'c', 'd'];

/// The band puzzle in Olšák's `.g` format: `k` colours, `m` columns and `k * m` rows. Each row
/// holds one cell, of its band's colour (rows `c * m .. (c + 1) * m` are band `c`); each
/// column holds one cell of each colour, in band order. Each band is an `m` x `m` permutation
/// matrix, so the puzzle has `(m!)^k` solutions (see [`bands_total`]).
pub(crate) fn write_bands(dir: &Path, k: usize, m: usize) -> PathBuf {
    let hex = ["#FF0000", "#00AA00", "#0000FF", "#FFAA00"];
    let names = ["red", "green", "blue", "orange"];
    let mut text = format!("bands {k}x{m}\n#d\n   0:   #FFFFFF   white\n");
    for c in 0..k {
        let ch = BAND_CHARS[c];
        text.push_str(&format!("   {ch}:{ch}  {}   {}\n", hex[c], names[c]));
    }
    text.push_str(": rows\n");
    for ch in &BAND_CHARS[..k] {
        for _ in 0..m {
            text.push_str(&format!("1{ch}\n"));
        }
    }
    text.push_str(": columns\n");
    let column: Vec<String> = BAND_CHARS[..k].iter().map(|c| format!("1{c}")).collect();
    for _ in 0..m {
        text.push_str(&column.join(" "));
        text.push('\n');
    }
    let path = dir.join(format!("bands-{k}x{m}.g"));
    std::fs::write(&path, text).expect("write puzzle");
    path
}

/// `(m!)^k`, the number of solutions of the band puzzle.
pub(crate) fn bands_total(k: usize, m: usize) -> usize {
    let factorial: usize = (1..=m).product();
    factorial.pow(k as u32)
}

/// Checks that `grid` (rows of colour characters and `.`) is a solution of the band puzzle.
pub(crate) fn assert_band_solution(grid: &str, k: usize, m: usize) {
    let rows: Vec<&str> = grid.lines().collect();
    assert_eq!(rows.len(), k * m, "a partial solution: {grid:?}");
    for (r, row) in rows.iter().enumerate() {
        let ch = BAND_CHARS[r / m];
        assert_eq!(row.len(), m, "{grid}");
        assert_eq!(row.matches(ch).count(), 1, "{grid}");
        assert_eq!(row.matches('.').count(), m - 1, "{grid}");
    }
    for c in 0..k {
        for col in 0..m {
            let band = &rows[c * m..(c + 1) * m];
            let filled = band.iter().filter(|r| r.as_bytes()[col] != b'.').count();
            assert_eq!(filled, 1, "{grid}");
        }
    }
}

/// Runs the binary with `args` then `puzzle`: exit code, standard output and error.
pub(crate) fn run(args: &[&str], puzzle: &Path) -> (i32, String, String) {
    let output = nonoenum(args).arg(puzzle).output().expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

/// Writes `text` to `dir/name`.
pub(crate) fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write puzzle");
    path
}

/// Every clue `1` on an `n` x `n` grid: `n!` solutions.
pub(crate) fn perm(dir: &Path, n: usize) -> PathBuf {
    let text = format!("{n} {n}\n{}", "1\n".repeat(2 * n));
    write(dir, &format!("perm{n}.txt"), &text)
}

/// Checks a text listing (solutions as rows of `#` and `.`, a blank line between them) against
/// the black-and-white puzzle of `file`: each solution satisfies every clue and none is listed
/// twice. Returns how many there are.
pub(crate) fn check_listing(file: &Path, listing: &str) -> usize {
    let text = std::fs::read_to_string(file).expect("the puzzle file");
    let mut puzzles = nonoenum::format::read_puzzles(text.as_bytes(), None, None).expect("valid");
    let puzzle = puzzles.remove(0);
    let mut seen = std::collections::HashSet::new();
    for grid in listing.split("\n\n").filter(|g| !g.trim().is_empty()) {
        let cells: Vec<bool> = grid
            .lines()
            .flat_map(str::chars)
            .map(|ch| match ch {
                '#' => true,
                '.' => false,
                _ => panic!("unexpected {ch:?} in\n{grid}"),
            })
            .collect();
        assert_eq!(cells.len(), puzzle.height() * puzzle.width(), "{grid}");
        puzzle
            .check_grid(&cells)
            .unwrap_or_else(|e| panic!("{e} in\n{grid}"));
        assert!(seen.insert(cells), "listed twice:\n{grid}");
    }
    seen.len()
}
