//! `-o FILE`, checkpoints and split files respect their target: a FIFO or a device is written
//! directly and stays what it is, a write error there is one line with exit code 2, and the
//! temporary file beside a regular target never clobbers an existing file.

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::Path;
use std::process::Command;

use crate::common;

use common::{OutputAssertExt, assert_bad_input, bundled, nonoenum};

/// The one solution of `heart.txt`, as `list` prints it.
fn heart_solution() -> String {
    let output = nonoenum(["list", "-q", &bundled("heart.txt")])
        .output()
        .expect("runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_fifo_is_written_directly_and_stays_a_fifo() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipping: mkfifo is not available");
        return;
    }
    let reading = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::fs::File::open(reading)
            .expect("open the FIFO")
            .read_to_string(&mut text)
            .expect("read the FIFO");
        text
    });
    let _ = nonoenum(["list", "-q", "-o"])
        .arg(&fifo)
        .arg(bundled("heart.txt"))
        .assert()
        .success();
    assert_eq!(reader.join().expect("the reader ends"), heart_solution());
    let kind = std::fs::metadata(&fifo).expect("still there").file_type();
    assert!(kind.is_fifo(), "{kind:?}");
    assert_eq!(names(dir.path()), ["fifo"]);
}

#[test]
fn dev_null_stays_a_character_device() {
    let null = Path::new("/dev/null");
    if !null.exists() {
        eprintln!("skipping: no /dev/null");
        return;
    }
    for command in ["solve", "list"] {
        let _ = nonoenum([command, "-q", "-o", "/dev/null", &bundled("heart.txt")])
            .assert()
            .success()
            .stdout("");
        let kind = std::fs::metadata(null).expect("/dev/null").file_type();
        assert!(kind.is_char_device(), "{command}: {kind:?}");
    }
    let heart = bundled("heart.txt");
    let _ = nonoenum(["convert", "--to", "non", "-o", "/dev/null", &heart])
        .assert()
        .success();
    let kind = std::fs::metadata(null).expect("/dev/null").file_type();
    assert!(kind.is_char_device(), "convert: {kind:?}");
}

#[test]
fn a_full_device_is_one_line_of_error() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipping: no /dev/full");
        return;
    }
    let heart = bundled("heart.txt");
    let full = "cannot write /dev/full: ";
    assert_bad_input(&["list", "-o", "/dev/full", &heart], &[full]);
    assert_bad_input(&["solve", "-o", "/dev/full", &heart], &[full]);
    let ambiguous = bundled("ambiguous.txt");
    assert_bad_input(
        &["list", "--to", "json", "-o", "/dev/full", &ambiguous],
        &[full],
    );
}

#[test]
fn an_existing_temporary_name_is_left_alone() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let heart = bundled("heart.txt");
    let out = dir.path().join("out.txt");
    let checkpoint = dir.path().join("run.ckpt");
    let split = dir.path().join("split");
    std::fs::create_dir(&split).expect("a split folder");
    let others = [
        dir.path().join("out.txt.tmp"),
        dir.path().join("run.ckpt.tmp"),
        split.join("manifest.json.tmp"),
        split.join("part-001.txt.tmp"),
    ];
    for other in &others {
        std::fs::write(other, "someone else's").expect("write");
    }
    let _ = nonoenum(["list", "-q", "-o"])
        .arg(&out)
        .arg(&heart)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(&out).expect("read"),
        heart_solution()
    );
    let _ = nonoenum(["count", "-q", "--method", "enumerate", "--checkpoint"])
        .arg(&checkpoint)
        .arg(&heart)
        .assert()
        .success()
        .stdout("1\n");
    let _ = nonoenum(["split", "-q", "--parts", "2", "-o"])
        .arg(&split)
        .arg(common::perm(dir.path(), 4))
        .assert()
        .success();
    for other in &others {
        let kept = std::fs::read_to_string(other).expect("still there");
        assert_eq!(kept, "someone else's", "{}", other.display());
    }
    // Nothing else is left beside the outputs: no temporary file of this run.
    let top = [
        "out.txt",
        "out.txt.tmp",
        "perm4.txt",
        "run.ckpt",
        "run.ckpt.tmp",
        "split",
    ];
    assert_eq!(names(dir.path()), top);
    assert!(
        names(&split).iter().all(|n| !n.starts_with('.')),
        "{:?}",
        names(&split)
    );
}
