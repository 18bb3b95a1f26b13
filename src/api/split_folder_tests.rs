//! Split folders through the library: split, count each part, merge, and every refusal of a
//! merge that would not be exact.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use super::merge::check_manifest;
use super::split_folder::MANIFEST_FORMAT;
use crate::{
    AnyPuzzle, FileError, JsonLine, Manifest, MergeCommand, MergeError, PartError, SplitError,
    SplitFolder, SplitOptions, merge,
};

/// Every clue `1` on an `n` x `n` grid: `n!` solutions.
fn perm(n: usize) -> AnyPuzzle {
    let text = format!("{n} {n}\n{}", "1\n".repeat(2 * n));
    AnyPuzzle::parse(&text).expect("a puzzle")
}

fn options(parts: usize) -> SplitOptions {
    SplitOptions {
        parts,
        label: "perm".into(),
        source: "perm.txt".into(),
    }
}

/// Splits `puzzle` into `parts` in `dir`, counts and writes every part's results.
fn split_and_run(puzzle: &AnyPuzzle, parts: usize, dir: &Path) -> SplitFolder {
    let cancel = AtomicBool::new(false);
    let folder = SplitFolder::write(puzzle, dir, &options(parts), &cancel).expect("split");
    for i in 0..folder.manifest().parts.len() {
        let results = folder.count_part(i).expect("counted");
        assert_eq!(results.len(), folder.manifest().parts[i].subtrees.len());
        folder.write_results(i, &results).expect("written");
    }
    folder
}

/// The problem of the one part without a usable result.
fn only_problem(error: MergeError) -> PartError {
    let MergeError::Parts { mut problems, .. } = error else {
        panic!("a part's problem: {error}");
    };
    assert_eq!(problems.len(), 1);
    problems.remove(0).error
}

#[test]
fn split_count_and_merge_give_the_direct_count() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    for (puzzle, parts) in [(perm(5), 4), (perm(6), 3)] {
        let dir = tmp.path().join(format!("split-{parts}"));
        let folder = split_and_run(&puzzle, parts, &dir);
        let merged = merge(&dir).expect("merged");
        assert_eq!(merged.count, puzzle.count().expect("counted"));
        assert_eq!(merged.parts, folder.manifest().parts.len());
        let result = folder.merged_result(MergeCommand::Count, &merged);
        assert!(result.complete && result.count == merged.count);
    }
}

#[test]
fn a_colour_puzzle_splits_and_merges() {
    let puzzle = AnyPuzzle::read("puzzles/flag.g").expect("the flag");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let folder = split_and_run(&puzzle, 2, tmp.path());
    assert!(folder.part_path(0).expect("a part").ends_with("part-001.g"));
    let merged = folder.merge(MergeCommand::Count).expect("merged");
    assert_eq!(merged.count, puzzle.count().expect("counted"));
}

#[test]
fn listings_of_the_parts_merge_into_every_solution_once() {
    let puzzle = perm(4);
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let cancel = AtomicBool::new(false);
    let folder = SplitFolder::write(&puzzle, tmp.path(), &options(3), &cancel).expect("split");
    // Each part listed as `list --to jsonl` would: its solutions, then a `result` per subtree.
    for i in 0..folder.manifest().parts.len() {
        let mut text = String::new();
        let mut results = folder.count_part(i).expect("counted");
        for (result, subtree) in results
            .iter_mut()
            .zip(folder.part_puzzles(i).expect("read"))
        {
            for solution in subtree.solutions() {
                let line = JsonLine::Solution {
                    rows: solution.rows(),
                };
                text += &(serde_json::to_string(&line).expect("JSON") + "\n");
            }
            result.command = "list".into();
            let line = JsonLine::Result(result.clone());
            text += &(serde_json::to_string(&line).expect("JSON") + "\n");
        }
        let path = folder.result_path(i).expect("a part");
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("created");
        std::fs::write(path, text).expect("written");
    }
    let merged = folder.merge(MergeCommand::List).expect("merged");
    assert_eq!(merged.count, 24u32.into());
    let mut listed = Vec::new();
    folder
        .for_each_solution(|rows| {
            listed.push(rows);
            Ok(())
        })
        .expect("listed");
    let mut all: Vec<_> = puzzle.solutions().map(|s| s.rows()).collect();
    listed.sort();
    all.sort();
    assert_eq!(listed, all);
    // A failure to hand a solution over is the caller's own error.
    let failed = folder.for_each_solution(|_| Err(std::io::ErrorKind::BrokenPipe.into()));
    assert!(matches!(failed, Err(MergeError::Output(_))), "{failed:?}");
}

#[test]
fn merge_refuses_a_missing_foreign_or_unfinished_part() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let folder = split_and_run(&perm(5), 3, tmp.path());
    let second = folder.result_path(1).expect("a part");
    let saved = std::fs::read(&second).expect("a result");

    std::fs::remove_file(&second).expect("removed");
    let error = merge(tmp.path()).expect_err("a part is missing");
    assert!(
        error
            .to_string()
            .contains("1 of 3 parts have no usable result"),
        "{error}"
    );
    assert!(matches!(only_problem(error), PartError::NoResult { .. }));
    // A folder in its place opens, but does not read.
    std::fs::create_dir(&second).expect("a folder");
    let error = only_problem(merge(tmp.path()).expect_err("unreadable"));
    assert!(
        matches!(error, PartError::File(FileError::Read { .. })),
        "{error}"
    );
    std::fs::remove_dir(&second).expect("removed");

    // The results of another puzzle, then of another part of this one.
    let other = tmp.path().join("other");
    split_and_run(&perm(4), 1, &other);
    std::fs::copy(other.join("results/part-001.json"), &second).expect("copied");
    let error = only_problem(merge(tmp.path()).expect_err("foreign"));
    assert!(matches!(error, PartError::AnotherPuzzle { .. }), "{error}");
    std::fs::copy(folder.result_path(0).expect("a part"), &second).expect("copied");
    let error = only_problem(merge(tmp.path()).expect_err("another part"));
    assert!(matches!(error, PartError::AnotherPart { .. }), "{error}");

    // A stopped run, and a count where a listing is merged.
    let stopped = String::from_utf8(saved.clone()).expect("UTF-8");
    let stopped = stopped.replace("\"complete\":true", "\"complete\":false");
    std::fs::write(&second, stopped).expect("written");
    let error = only_problem(merge(tmp.path()).expect_err("stopped"));
    assert!(matches!(error, PartError::Incomplete), "{error}");
    std::fs::write(&second, &saved).expect("written");
    let listing = folder
        .merge(MergeCommand::List)
        .expect_err("counts, not listings");
    assert!(
        listing.to_string().contains("but merging `list` results"),
        "{listing}"
    );
    assert_eq!(merge(tmp.path()).expect("merged").count, 120u32.into());
}

#[test]
fn merge_refuses_a_manifest_without_parts_with_one_twice_outside_its_folder_or_dropped() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    split_and_run(&perm(4), 2, tmp.path());
    let path = tmp.path().join("manifest.json");
    let text = std::fs::read_to_string(&path).expect("the manifest");
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut m = manifest.clone();
        edit(&mut m);
        std::fs::write(&path, m.to_string()).expect("written");
        merge(tmp.path()).expect_err("refused")
    };
    let empty = edited(&|m| m["parts"] = serde_json::json!([]));
    assert!(matches!(empty, MergeError::NoParts { .. }), "{empty}");
    let twice = edited(&|m| m["parts"][1] = m["parts"][0].clone());
    assert!(matches!(twice, MergeError::Twice { .. }), "{twice}");
    for outside in ["../part-001.txt", "/etc/passwd", "sub/part-001.txt", ".."] {
        let error = edited(&|m| m["parts"][0]["file"] = serde_json::json!(outside));
        let message = format!("part `{outside}` is not a file name in the split folder");
        assert!(matches!(error, MergeError::Outside { .. }), "{error}");
        assert!(error.to_string().ends_with(&message), "{error}");
    }
    let format = edited(&|m| m["format"] = serde_json::json!("nonoenum-split/9"));
    assert!(matches!(format, MergeError::Format { .. }), "{format}");
    // A part dropped, or a subtree edited: the parts no longer match the manifest's checksum.
    let dropped = edited(&|m| m["parts"] = serde_json::json!([m["parts"][1].clone()]));
    assert!(
        matches!(dropped, MergeError::PartsEdited { .. }),
        "{dropped}"
    );
    let renamed = edited(&|m| m["parts"][0]["subtrees"][0]["givens"] = serde_json::json!("x"));
    assert!(
        matches!(renamed, MergeError::PartsEdited { .. }),
        "{renamed}"
    );
    // A part dropped and the checksum taken out with it: this format must hold one.
    let unsealed = edited(&|m| {
        m["parts"] = serde_json::json!([m["parts"][1].clone()]);
        let _ = m.as_object_mut().and_then(|o| o.remove("parts_checksum"));
    });
    assert!(
        matches!(unsealed, MergeError::PartsEdited { .. }),
        "{unsealed}"
    );
    std::fs::write(&path, "{").expect("written");
    let broken = merge(tmp.path()).expect_err("not a manifest");
    assert!(matches!(broken, MergeError::NotManifest { .. }), "{broken}");
    std::fs::remove_file(&path).expect("removed");
    let missing = merge(tmp.path()).expect_err("no manifest");
    assert!(
        matches!(missing, MergeError::Manifest(FileError::Read { .. })),
        "{missing}"
    );
    assert!(missing.to_string().starts_with("cannot read "), "{missing}");
    std::fs::write(&path, text).expect("written");
    assert_eq!(merge(tmp.path()).expect("merged").count, 24u32.into());
}

#[test]
fn split_refuses_zero_parts_and_a_used_folder_and_a_cancelled_one_leaves_nothing() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let cancel = AtomicBool::new(false);
    let none = SplitFolder::write(&perm(4), tmp.path(), &options(0), &cancel);
    assert!(matches!(none, Err(SplitError::NoParts)));
    SplitFolder::write(&perm(4), tmp.path(), &options(2), &cancel).expect("split");
    let used = SplitFolder::write(&perm(4), tmp.path(), &options(2), &cancel);
    assert!(matches!(used, Err(SplitError::Used { .. })));

    let dir = tmp.path().join("a/b");
    let raised = AtomicBool::new(true);
    let stopped = SplitFolder::write(&perm(5), &dir, &options(2), &raised);
    assert!(
        matches!(
            stopped,
            Err(SplitError::Search(crate::search::SolveError::Cancelled))
        ),
        "{stopped:?}"
    );
    assert!(
        !tmp.path().join("a").exists(),
        "the folders it made are gone"
    );
}

/// A manifest of each format: parts with subtrees, with the parts' checksum and
/// (`nonoenum-split/2`) without, and (`nonoenum-split/1`) parts without subtrees.
fn seeds() -> Vec<Vec<u8>> {
    let subtree = serde_json::json!({"givens": "g", "decisions": 1, "unknown": 5, "estimate": 2.5});
    let manifest = |format: &str, parts| {
        serde_json::json!({
            "format": format, "nonoenum": "0.1.0", "source": "p.txt", "label": "p",
            "puzzle": "c", "givens": "g", "rows": 3, "cols": 3, "parts_requested": 2,
            "method": "balanced", "parts": parts,
        })
    };
    let grouped = serde_json::json!([
        {"file": "part-1.txt", "estimate": 2.5, "subtrees": [subtree]},
        {"file": "part-2.txt", "estimate": 5.0, "subtrees": [subtree, subtree]},
    ]);
    let single = serde_json::json!([
        {"file": "part-1.txt", "givens": "g", "decisions": 1, "unknown": 5, "estimate": 2.5},
    ]);
    let mut sealed: Manifest = serde_json::from_value(manifest("", grouped.clone())).unwrap();
    (sealed.format, sealed.parts_checksum) = (MANIFEST_FORMAT.into(), None);
    sealed.parts_checksum = Some(sealed.parts_checksum_now());
    [
        serde_json::to_value(&sealed).unwrap(),
        manifest("nonoenum-split/2", grouped),
        manifest("nonoenum-split/1", single),
    ]
    .iter()
    .map(|v| v.to_string().into_bytes())
    .collect()
}

#[test]
fn the_seeds_are_read_back() {
    for seed in seeds() {
        let manifest: Manifest = serde_json::from_slice(&seed).expect("a manifest");
        assert!(check_manifest(&manifest, "m").is_ok());
    }
}

/// A byte to put into a manifest: often one that JSON gives a meaning to.
fn manifest_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"09 \n\",.-/:[]{}".to_vec()),
        Just(0xc3),
        any::<u8>()
    ]
}

proptest! {
    #![proptest_config(crate::test_strategies::fuzz_cases(300))]

    #[test]
    fn edited_manifests_never_panic(
        seed in 0..2usize,
        edits in prop::collection::vec((any::<usize>(), manifest_byte(), 0..3usize), 1..5),
    ) {
        let mut bytes = seeds().swap_remove(seed);
        for (at, byte, removed) in edits {
            let at = at % (bytes.len() + 1);
            let end = (at + removed).min(bytes.len());
            let _ = bytes.splice(at..end, [byte]);
        }
        if let Ok(manifest) = serde_json::from_slice::<Manifest>(&bytes) {
            let _ = check_manifest(&manifest, "fuzz");
        }
    }
}

/// A split that stopped sizing says so in its manifest's method, and one that did not does not.
#[test]
fn a_manifest_says_whether_sizing_stopped() {
    let AnyPuzzle::Bw(puzzle) = perm(4) else {
        unreachable!("black and white")
    };
    for stopped in [false, true] {
        let manifest = super::split_folder::manifest(&puzzle, &options(2), Vec::new(), stopped);
        let folder = SplitFolder {
            dir: "unused".into(),
            manifest,
        };
        assert_eq!(
            folder.sizing_stopped(),
            stopped,
            "{}",
            folder.manifest().method
        );
        let summary = folder.summary("DIR");
        assert!(
            summary.starts_with("split perm into 0 parts in DIR (0 subtrees"),
            "{summary}"
        );
        assert_eq!(summary.contains("sizing stopped"), stopped, "{summary}");
    }
}
