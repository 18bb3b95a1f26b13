//! Inputs larger than 64 MiB are refused with one line naming the input and exit code 2, after
//! reading just past the limit: `/dev/zero` and an endless pipe never fill the memory.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use crate::common;

use common::{OutputAssertExt, Run, assert_bad_input, bundled, nonoenum, perm};

/// What every refusal says after the input's name.
const TOO_LARGE: &str = "larger than 64 MiB";

/// Whether `/dev/zero` is there to read (it is on Linux and macOS); says so when it is not.
fn have_dev_zero() -> bool {
    let have = Path::new("/dev/zero").exists();
    if !have {
        eprintln!("skipping: no /dev/zero");
    }
    have
}

#[test]
fn endless_files_are_refused_by_every_command_that_reads_one() {
    if !have_dev_zero() {
        return;
    }
    let heart = bundled("heart.txt");
    let zero = "/dev/zero";
    let refused = format!("{zero}: {TOO_LARGE}");
    for command in ["solve", "count", "list"] {
        assert_bad_input(&[command, zero], &[&refused]);
        assert_bad_input(&[command, "--givens", zero, &heart], &[&refused]);
    }
    assert_bad_input(&["convert", "--to", "non", zero], &[&refused]);
    assert_bad_input(&["make", zero], &[&refused]);
    assert_bad_input(&["resume", zero], &[&refused]);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let unused = dir.path().join("split").display().to_string();
    assert_bad_input(&["split", "-o", &unused, zero], &[&refused]);
}

/// Checks a run that read an endless standard input: refused, on one line.
fn assert_stdin_refused(output: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("error: <stdin>: {TOO_LARGE}")),
        "{stderr}"
    );
}

#[test]
fn an_endless_standard_input_is_refused() {
    if !have_dev_zero() {
        return;
    }
    let zero = File::open("/dev/zero").expect("open /dev/zero");
    let output = nonoenum(["count", "-"])
        .stdin(Stdio::from(zero))
        .output()
        .expect("runs");
    assert_stdin_refused(&output);
}

#[test]
fn an_endless_pipe_is_refused_and_closed() {
    let mut child = nonoenum(["count", "-"]).stdin(Stdio::piped()).spawn_piped();
    let mut pipe = child.stdin.take().expect("a pipe");
    // Writes clue lines until the reader closes the pipe: it must stop reading by itself.
    let writer = std::thread::spawn(move || {
        let chunk = "1 1 1 1\n".repeat(1 << 17);
        let mut written = 0u64;
        while pipe.write_all(chunk.as_bytes()).is_ok() {
            written += chunk.len() as u64;
        }
        written
    });
    let output = child.wait_with_output().expect("runs");
    let written = writer.join().expect("the writer ends");
    assert_stdin_refused(&output);
    assert!(written >= 64 << 20, "{written} bytes written");
}

#[test]
fn a_file_just_over_the_limit_is_refused_and_one_under_is_read() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let puzzle = perm(dir.path(), 3);
    let text = std::fs::read_to_string(&puzzle).expect("read");
    // Comment lines pad the puzzle to exactly the limit, then one byte more.
    let padded = dir.path().join("padded.txt");
    let mut bytes = text.into_bytes();
    let comment = format!("#{}\n", "c".repeat(1022));
    while bytes.len() + comment.len() <= 64 << 20 {
        bytes.extend_from_slice(comment.as_bytes());
    }
    bytes.resize(64 << 20, b'\n');
    std::fs::write(&padded, &bytes).expect("write");
    let shown = padded.display().to_string();
    let _ = nonoenum(["count", &shown]).assert().success().stdout("6\n");
    bytes.push(b'\n');
    std::fs::write(&padded, &bytes).expect("write");
    assert_bad_input(&["count", &shown], &[&format!("{shown}: {TOO_LARGE}")]);
}
