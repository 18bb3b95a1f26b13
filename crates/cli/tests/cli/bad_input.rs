//! The table of bad inputs in docs/formats.md is true: each command in it, run from the
//! repository root, exits with code 2 and prints exactly the message the table shows, on one
//! line. Rows that read `../shared` skip, saying so, when it is absent.

use std::path::Path;

use crate::common::nonoenum;

/// The repository root (this crate is `crates/cli`), where the table's commands run.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// `(command, message)` for every row of the "Bad input" table of docs/formats.md.
fn table_rows() -> Vec<(String, String)> {
    let page =
        std::fs::read_to_string(Path::new(ROOT).join("docs/formats.md")).expect("docs/formats.md");
    let section = page
        .split("\n## Bad input\n")
        .nth(1)
        .expect("docs/formats.md has a Bad input section");
    section
        .lines()
        .skip_while(|l| !l.starts_with("| bad input |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            assert_eq!(cells.len(), 3, "a row of three cells: {row}");
            let command = cells[1].trim_matches('`').to_string();
            let message = cells[2]
                .trim_end_matches(" |")
                .trim_start_matches("`` ")
                .trim_end_matches(" ``")
                .to_string();
            (command, message)
        })
        .collect()
}

#[test]
fn every_bad_input_in_the_formats_page_gets_its_message() {
    let rows = table_rows();
    assert!(rows.len() >= 20, "the table lists {} rows", rows.len());
    for (command, message) in rows {
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "nonoenum", "{command}");
        if words.iter().any(|w| w.starts_with("../shared"))
            && !Path::new(ROOT).join("../shared").exists()
        {
            eprintln!("skipping `{command}`: ../shared is absent");
            continue;
        }
        let output = nonoenum(&words[1..])
            .current_dir(ROOT)
            .output()
            .expect("runs");
        let stderr = String::from_utf8(output.stderr).expect("UTF-8");
        assert_eq!(output.status.code(), Some(2), "{command}: {stderr}");
        assert_eq!(stderr, format!("{message}\n"), "{command}");
        assert!(output.stdout.is_empty(), "{command} printed a result");
    }
}
