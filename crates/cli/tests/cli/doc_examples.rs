//! Runs the command examples of README.md and docs/*.md and checks what they print, so that a
//! document that drifts from the binary fails the test suite.
//!
//! The conventions, also described in docs/development.md:
//!
//! - A *session* is a fenced block marked ```` ```text ```` or ```` ```console ```` whose first
//!   line starts with `$ `. Each `$ ` line is a command; the lines after it, up to the next
//!   `$ ` line or the end of the block, are what it prints: its standard output, then its
//!   standard error (as a terminal shows them when the program prints a summary on standard
//!   error at the end). Trailing blank lines are ignored. The exit status is not checked
//!   directly: `$?` in a command is the previous command's status, so `$ echo $?` shows and
//!   checks it.
//! - Expected and actual output are compared by snapbox, whose wildcards the documents use: a
//!   line `...` matches any number of lines (none included), up to the first line that matches
//!   the expected line after it, and `[..]` inside a line matches any text on that line: for
//!   timings, rates and other numbers that vary from run to run. A mismatch shows snapbox's
//!   diff.
//! - A fenced block marked ```` ```sh ```` whose every command starts with `nonoenum` is run
//!   line by line, and each line must exit with status 0; its output is not checked. Other
//!   ```` ```sh ```` blocks (cargo, scripts, installs) are not run.
//! - Commands run from the repository root with standard input empty and `LC_ALL=C`: a plain
//!   `nonoenum` command (words only, no quotes, pipes, redirections or `$`) runs the binary
//!   under test directly, any other runs with `sh -c`, the binary first on `PATH` as
//!   `nonoenum`. Each document gets a scratch
//!   folder of its own that stands for `/tmp`: every `/tmp/` in a command is replaced by it,
//!   and its path in the output is written back as `/tmp`, so examples may write files in
//!   `/tmp` without touching the real one. The blocks of a document run in order, so a later
//!   block may use a file made by an earlier one of the same document.
//! - A marker on the line right before a block changes how it runs:
//!   - `<!-- doc-test: skip: REASON -->` skips it: for commands that need Ctrl-C, files outside
//!     the repository, or many seconds;
//!   - `<!-- doc-test: interleaved -->` checks standard output and standard error merged into
//!     one stream in the order they were written (as `2>&1` gives): for progress lines printed
//!     before the result, or a pipeline that holds standard output back.
//! - A block that calls `scripts/run-gnu-parallel.sh` is skipped when GNU parallel is not
//!   installed, and so are the later blocks of its document, which may use its files.
//!
//! The test lists the blocks it ran and skipped (`cargo test -p nonoenum-cli --test cli
//! doc_examples -- --nocapture` shows them), and fails if it ran none.

use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::BIN;

/// The repository root, where the commands run.
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// How a marker line starts; `-->` ends it.
const MARKER: &str = "<!-- doc-test:";

/// How long one command may run before it counts as hung.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);

/// A fenced block of a document.
struct Block {
    /// The document, relative to the repository root.
    file: String,
    /// The 1-based line of the opening fence.
    line: usize,
    /// The info string's first word (`text`, `sh`, ...).
    lang: String,
    /// The lines between the fences.
    body: Vec<String>,
    /// The reason given by a skip marker on the line before the fence.
    skip: Option<String>,
    /// Whether an `interleaved` marker is on the line before the fence.
    interleaved: bool,
}

/// One `$ ` command of a session and the lines it should print.
struct Step {
    /// The 1-based line of the command in the document.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The fenced blocks of `text`, the contents of `file`.
fn blocks(file: &str, text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let lang = info
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or("")
            .to_string();
        let marker = i
            .checked_sub(1)
            .and_then(|before| lines[before].trim().strip_prefix(MARKER))
            .map(|rest| rest.trim_end_matches("-->").trim());
        let (mut skip, mut interleaved) = (None, false);
        match marker {
            None => {}
            Some("interleaved") => interleaved = true,
            Some(other) => match other.strip_prefix("skip:") {
                Some(reason) if !reason.trim().is_empty() => skip = Some(reason.trim().to_string()),
                _ => panic!(
                    "{file}:{i}: unknown marker `{}`: expected `{MARKER} skip: REASON -->` or \
                     `{MARKER} interleaved -->`",
                    lines[i - 1].trim()
                ),
            },
        }
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or_else(|| panic!("{file}:{}: the block is never closed", i + 1));
        found.push(Block {
            file: file.to_string(),
            line: i + 1,
            lang,
            body: lines[i + 1..end].iter().map(|s| s.to_string()).collect(),
            skip,
            interleaved,
        });
        i = end + 1;
    }
    found
}

impl Block {
    /// Whether the block is a session: text whose first line is a `$ ` command.
    fn is_session(&self) -> bool {
        matches!(self.lang.as_str(), "text" | "console")
            && self.body.first().is_some_and(|l| l.starts_with("$ "))
    }

    /// The commands of a ```` ```sh ```` block, when every one calls nonoenum.
    fn nonoenum_commands(&self) -> Option<Vec<(usize, String)>> {
        if self.lang != "sh" {
            return None;
        }
        let commands: Vec<(usize, String)> = self
            .body
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(k, l)| (self.line + 1 + k, l.trim().to_string()))
            .collect();
        let all_nonoenum = !commands.is_empty()
            && commands
                .iter()
                .all(|(_, c)| c.split_whitespace().next() == Some("nonoenum"));
        all_nonoenum.then_some(commands)
    }

    /// A session's commands, each with its expected output.
    fn steps(&self) -> Vec<Step> {
        let mut steps: Vec<Step> = Vec::new();
        for (k, line) in self.body.iter().enumerate() {
            if let Some(command) = line.strip_prefix("$ ") {
                steps.push(Step {
                    line: self.line + 1 + k,
                    command: command.to_string(),
                    expected: Vec::new(),
                });
            } else if let Some(step) = steps.last_mut() {
                step.expected.push(line.clone());
            }
        }
        for step in &mut steps {
            trim_trailing_blank(&mut step.expected);
        }
        steps
    }
}

/// Drops the blank lines at the end of `lines`.
fn trim_trailing_blank(lines: &mut Vec<String>) {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
}

/// Checks the printed lines `actual` against the `expected` ones with snapbox, whose `[..]`
/// and `...` are the wildcards; a mismatch gives snapbox's diff.
fn compare(expected: &[String], actual: &[String]) -> Result<(), String> {
    let text = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    snapbox::Assert::new()
        .normalize_paths(false)
        .try_eq(
            None,
            snapbox::Data::text(text(actual)),
            snapbox::Data::text(text(expected)),
        )
        .map_err(|e| e.to_string())
}

/// The arguments of `command` when it is `nonoenum` followed by plain words, which runs
/// without a shell.
fn plain_nonoenum(command: &str) -> Option<Vec<&str>> {
    let mut words = command.split_whitespace();
    let plain = !command.contains(|c: char| "|&;<>()$`\\\"'*?[]{}#~".contains(c));
    (plain && words.next() == Some("nonoenum")).then(|| words.collect())
}

/// Where the commands run: a `PATH` whose first folder holds `nonoenum`, and the scratch
/// folder standing for `/tmp`.
struct Sandbox {
    path: String,
    scratch: tempfile::TempDir,
    _bin: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let bin = tempfile::tempdir().expect("a temporary folder");
        symlink(BIN, bin.path().join("nonoenum")).expect("a link to the binary");
        let path = match std::env::var_os("PATH") {
            Some(old) => format!("{}:{}", bin.path().display(), old.to_string_lossy()),
            None => bin.path().display().to_string(),
        };
        let scratch = tempfile::tempdir().expect("a temporary folder");
        Sandbox {
            path,
            scratch,
            _bin: bin,
        }
    }

    /// Runs `command` after setting `$?` to `status`: the binary itself when the command is a
    /// plain `nonoenum` one, else `sh -c`. Returns its exit status (None: killed by a signal)
    /// and the lines it printed, its scratch folder written back as `/tmp`: its standard
    /// output then its standard error, or both as one stream when `interleaved`.
    fn run(
        &self,
        command: &str,
        status: i32,
        interleaved: bool,
    ) -> Result<(Option<i32>, Vec<String>), String> {
        let scratch = self.scratch.path().display().to_string();
        let command = command.replace("/tmp/", &format!("{scratch}/"));
        let mut process = match plain_nonoenum(&command) {
            Some(args) if !interleaved => {
                let mut process = Command::new(BIN);
                process.args(args);
                process
            }
            _ => {
                let mut process = Command::new("sh");
                let merge = if interleaved { "exec 2>&1; " } else { "" };
                process.arg("-c").arg(format!(
                    "{merge}__doc_status() {{ return \"$1\"; }}; __doc_status {status}; {command}"
                ));
                process
            }
        };
        let child = process
            .current_dir(repo_root())
            .env("PATH", &self.path)
            .env("LC_ALL", "C")
            .env_remove("COLUMNS")
            .env_remove("NONOENUM")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run it: {e}"))?;
        let group = format!("-{}", child.id());
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || sender.send(child.wait_with_output()));
        let Ok(output) = receiver.recv_timeout(COMMAND_TIMEOUT) else {
            let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
            return Err(format!("still running after {COMMAND_TIMEOUT:?}: killed"));
        };
        let output = output.map_err(|e| e.to_string())?;
        let mut lines = Vec::new();
        for bytes in [&output.stdout, &output.stderr] {
            let text = String::from_utf8_lossy(bytes).replace(&scratch, "/tmp");
            lines.extend(text.lines().map(str::to_string));
        }
        trim_trailing_blank(&mut lines);
        Ok((output.status.code(), lines))
    }
}

/// README.md and docs/*.md, relative to the repository root, in that order.
fn documents() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(repo_root().join("docs"))
        .expect("the docs folder")
        .map(|entry| entry.expect("a docs entry").file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_string());
    docs
}

/// Runs a session block; returns one message per command whose output differs.
fn run_session(sandbox: &Sandbox, block: &Block) -> Vec<String> {
    let mut failures = Vec::new();
    let mut status = 0;
    for step in block.steps() {
        let place = format!("{}:{}: `$ {}`", block.file, step.line, step.command);
        match sandbox.run(&step.command, status, block.interleaved) {
            Err(why) => failures.push(format!("{place}: {why}")),
            Ok((code, actual)) => {
                status = code.unwrap_or(128);
                if let Err(diff) = compare(&step.expected, &actual) {
                    failures.push(format!(
                        "{place} (block at line {}): the output differs:{diff}",
                        block.line
                    ));
                }
            }
        }
    }
    failures
}

/// Runs the commands of a ```` ```sh ```` block; returns one message per command that fails.
fn run_commands(sandbox: &Sandbox, block: &Block, commands: &[(usize, String)]) -> Vec<String> {
    let mut failures = Vec::new();
    for (line, command) in commands {
        let place = format!(
            "{}:{line}: `{command}` (block at line {})",
            block.file, block.line
        );
        match sandbox.run(command, 0, block.interleaved) {
            Err(why) => failures.push(format!("{place}: {why}")),
            Ok((Some(0), _)) => {}
            Ok((code, output)) => failures.push(format!(
                "{place}: expected exit status 0, got {code:?}; it printed:\n{}",
                output.join("\n")
            )),
        }
    }
    failures
}

/// Programs that the repository's scripts need, which may be missing: a script, and the
/// program it runs.
const NEEDS: &[(&str, &str)] = &[("scripts/run-gnu-parallel.sh", "parallel")];

/// Why `block` cannot run here: a script it calls needs a program that is not on `PATH`.
fn missing_program(block: &Block) -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    NEEDS
        .iter()
        .filter(|(script, _)| block.body.iter().any(|line| line.contains(script)))
        .find(|(_, program)| !std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
        .map(|(script, program)| {
            format!("{script} needs `{program}`, which is not installed (nor the blocks after)")
        })
}

#[test]
fn every_command_block_of_the_docs_prints_what_it_shows() {
    let started = Instant::now();
    let (mut ran, mut skipped, mut failures) = (0, 0, Vec::new());
    for file in documents() {
        let text = std::fs::read_to_string(repo_root().join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let sandbox = Sandbox::new();
        // Set when a block needs a program that is missing: the later blocks of the document
        // may use its files, so they are skipped too.
        let mut missing: Option<String> = None;
        for block in blocks(&file, &text) {
            let commands = block.nonoenum_commands();
            if !block.is_session() && commands.is_none() {
                continue;
            }
            let at = format!("{}:{}", block.file, block.line);
            if missing.is_none() {
                missing = missing_program(&block);
            }
            if let Some(reason) = block.skip.as_ref().or(missing.as_ref()) {
                println!("skipped {at}: {reason}");
                skipped += 1;
                continue;
            }
            let clock = Instant::now();
            let (kind, found) = match &commands {
                Some(commands) => ("commands", run_commands(&sandbox, &block, commands)),
                None => ("session", run_session(&sandbox, &block)),
            };
            let verdict = if found.is_empty() { "ok" } else { "FAILED" };
            println!(
                "ran {at} ({kind}): {verdict} in {:.2} s",
                clock.elapsed().as_secs_f64()
            );
            ran += 1;
            failures.extend(found);
        }
    }
    println!(
        "{ran} blocks ran, {skipped} skipped, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(ran > 0, "no command block of README.md or docs/*.md ran");
    assert!(
        failures.is_empty(),
        "{} doc example(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn patterns_match_as_documented() {
    let matches = |expected: &str, actual: &str| {
        let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
        compare(&lines(expected), &lines(actual)).is_ok()
    };
    assert!(matches("a [..] s", "a 0.25 s"));
    assert!(matches("[..]\nb", "\nb"));
    assert!(matches("x[..]y[..]z", "x1y2y3z"));
    assert!(!matches("a[..]b", "a"));
    assert!(!matches("ab", "abc"));
    assert!(matches("a\n...\nd", "a\nb\nc\nd"));
    assert!(matches("a\n...\nd", "a\nd"));
    assert!(matches("...", ""));
    assert!(!matches("a\n...\nd", "a\nb"));
    assert!(matches("C:\\x", "C:\\x"));
    assert_eq!(
        plain_nonoenum("nonoenum count a.txt"),
        Some(vec!["count", "a.txt"])
    );
    assert_eq!(plain_nonoenum("nonoenum count a.txt | head -1"), None);
    assert_eq!(plain_nonoenum("echo $?"), None);
}

#[test]
fn blocks_are_read_as_documented() {
    let doc = "Intro\n\
               ```text\n$ nonoenum count a.txt\n11\n$ echo $?\n0\n```\n\
               <!-- doc-test: skip: too slow -->\n```sh\nnonoenum count big.txt\n```\n\
               <!-- doc-test: interleaved -->\n```sh\nnonoenum count a.txt   # one\n```\n\
               ```sh\ncargo test\n```\n\
               ```text\nno command\n```\n";
    let found = blocks("doc.md", doc);
    assert_eq!(found.len(), 5);
    let session = &found[0];
    assert!(session.is_session() && session.skip.is_none() && !session.interleaved);
    let steps = session.steps();
    assert_eq!(steps.len(), 2);
    assert_eq!(
        (steps[0].line, steps[0].command.as_str()),
        (3, "nonoenum count a.txt")
    );
    assert_eq!(steps[0].expected, ["11"]);
    assert_eq!(
        (steps[1].line, steps[1].expected.as_slice()),
        (5, &["0".to_string()][..])
    );
    assert_eq!(found[1].skip.as_deref(), Some("too slow"));
    assert!(found[2].interleaved);
    assert_eq!(
        found[2].nonoenum_commands(),
        Some(vec![(14, "nonoenum count a.txt   # one".to_string())])
    );
    assert_eq!(found[3].nonoenum_commands(), None);
    assert!(!found[4].is_session() && found[4].nonoenum_commands().is_none());
}
