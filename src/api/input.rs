//! Reading the puzzles of an input as the command does: a file, or standard input for `-`,
//! capped at [`MAX_INPUT_BYTES`]; every puzzle it holds or the one asked for, labelled by its
//! title or its number; a givens file applied to each; errors that name the file and line, and say when the file's
//! name chose a format its content does not look like.

use std::io;
use std::path::Path;

use thiserror::Error;

use crate::color::AnyPuzzle;
use crate::files::{Capped, read_capped, read_file_capped, shown_path};
use crate::format::{
    Format, MAX_INPUT_BYTES, ParseError, ParseErrorKind, add_givens, color_givens,
    read_any_puzzles, read_numbered_givens_in,
};

/// Why an input could not be read ([`read_input`], [`read_labelled`]).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file (or standard input) could not be read.
    #[error("cannot read {what}")]
    Io {
        /// `NAME`, or `standard input`.
        what: String,
        /// What the system said.
        source: io::Error,
    },
    /// The input is larger than [`MAX_INPUT_BYTES`].
    #[error("{name}: larger than {} MiB, the most nonoenum reads of one input", MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The input, as [`input_name`] shows it.
        name: String,
    },
    /// The input holds fewer puzzles than the one asked for ([`ReadOptions::puzzle`]).
    #[error("{name}: --puzzle {asked} asked, but the file holds {count} {}", if *count == 1 { "puzzle" } else { "puzzles" })]
    NoSuchPuzzle {
        /// The input, as [`input_name`] shows it.
        name: String,
        /// The puzzle asked for, 1-based.
        asked: usize,
        /// How many the input holds.
        count: usize,
    },
    /// The text is not a puzzle, or the givens do not fit it: `NAME:LINE: problem`, with a
    /// hint when the file's name chose the format (see [`ParseError::located`]).
    #[error("{message}")]
    Parse {
        /// The whole message.
        message: String,
        /// The parser's error.
        error: ParseError,
    },
}

/// The name of an input in messages: `<stdin>` for `-`, else the path with its control
/// characters escaped (so that a message stays on one line).
pub fn input_name(path: &Path) -> String {
    if path == Path::new("-") {
        return "<stdin>".to_string();
    }
    shown_path(path)
}

/// The bytes of the file at `path`, or of standard input for `-`, at most
/// [`MAX_INPUT_BYTES`] (one byte past it is read, never more, so that `/dev/zero` or an
/// endless pipe never fills the memory).
pub fn read_input(path: &Path) -> Result<Vec<u8>, InputError> {
    let name = input_name(path);
    let (read, what) = if path == Path::new("-") {
        let stdin = io::stdin().lock();
        (
            read_capped(stdin, MAX_INPUT_BYTES),
            "standard input".to_string(),
        )
    } else {
        (read_file_capped(path, MAX_INPUT_BYTES), name.clone())
    };
    read.map_err(|e| match e {
        Capped::Io(source) => InputError::Io { what, source },
        Capped::TooLarge => InputError::TooLarge { name },
    })
}

/// `NAME:LINE: problem`, or `NAME: problem` for an error about the whole file.
fn at(name: &str, err: &ParseError) -> String {
    if err.line > 0 {
        format!("{name}:{}: {}", err.line, err.kind)
    } else {
        format!("{name}: {}", err.kind)
    }
}

impl ParseError {
    /// This error of the file `name` (at `path`, holding `bytes`), located as
    /// `NAME:LINE: problem`. When the file's name chose its format (`given` is `None`) and
    /// its content does not look like that format, the message says so and how to name the
    /// format.
    ///
    /// ```
    /// use std::path::Path;
    ///
    /// use nonoenum::format::read_any_puzzles;
    ///
    /// let (path, text) = (Path::new("x.g"), "2 2\n1\n1\n1\n1\n"); // plain, named .g
    /// let err = read_any_puzzles(text.as_bytes(), None, Some(path)).unwrap_err();
    /// let message = err.located("x.g", None, Some(path), text.as_bytes());
    /// let hint = "its content looks like plain: try --format plain";
    /// assert!(message.ends_with(&format!("(read as g because of the file name; {hint})")));
    /// ```
    pub fn located(
        &self,
        name: &str,
        given: Option<Format>,
        path: Option<&Path>,
        bytes: &[u8],
    ) -> String {
        let mut message = at(name, self);
        if matches!(self.kind, ParseErrorKind::UnknownFormat) {
            message.push_str(" with --format FMT");
        }
        let (None, Some(path)) = (given, path) else {
            return message;
        };
        if matches!(self.kind, ParseErrorKind::Empty) {
            return message;
        }
        let text = String::from_utf8_lossy(bytes);
        let (Some(named), content) = (
            Format::detect(Some(path), &text),
            Format::detect(None, &text),
        ) else {
            return message;
        };
        // Content alone cannot tell .mk, .nin and .pzl files: they look like plain ones, or
        // nothing.
        let unsure = matches!(named, Format::Mk | Format::Nin | Format::Pzl)
            && matches!(content, None | Some(Format::Plain));
        let hint = match content {
            _ if content == Some(named) || unsure => return message,
            Some(other) => format!("its content looks like {0}: try --format {0}", other.name()),
            None => "give its format with --format FMT".to_string(),
        };
        let named = named.name();
        format!("{message} (read as {named} because of the file name; {hint})")
    }
}

/// Which puzzles of an input to read, and how ([`read_labelled`]).
#[derive(Clone, Debug, Default)]
pub struct ReadOptions<'a> {
    /// The format; `None` tells it from the file's name and content.
    pub format: Option<Format>,
    /// Only the Nth puzzle of the input (1-based), if given.
    pub puzzle: Option<usize>,
    /// A givens file (`ROW COL [VALUE]` lines, `-` for standard input) to add to each puzzle
    /// read.
    pub givens: Option<&'a Path>,
}

/// The puzzles of the input at `path` (`-`: standard input) that `options` ask for, each
/// labelled by its title or `puzzle N` (its place in the input, 1-based), with the givens of
/// [`ReadOptions::givens`] added.
///
/// ```
/// use std::path::Path;
///
/// use nonoenum::{ReadOptions, read_labelled};
///
/// let set = Path::new("puzzles/mini-set.txt");
/// let puzzles = read_labelled(set, &ReadOptions::default())?;
/// assert!(puzzles.len() > 1);
/// let second = read_labelled(set, &ReadOptions { puzzle: Some(2), ..Default::default() })?;
/// assert_eq!(second[0].0, puzzles[1].0); // the label
/// let error = read_labelled(Path::new("Cargo.toml"), &ReadOptions::default()).unwrap_err();
/// assert!(error.to_string().starts_with("Cargo.toml:"), "{error}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_labelled(
    path: &Path,
    options: &ReadOptions<'_>,
) -> Result<Vec<(String, AnyPuzzle)>, InputError> {
    let (name, format) = (input_name(path), options.format);
    let bytes = read_input(path)?;
    let file = (path != Path::new("-")).then_some(path);
    let puzzles = read_any_puzzles(&bytes, format, file).map_err(|error| InputError::Parse {
        message: error.located(&name, format, file, &bytes),
        error,
    })?;
    let count = puzzles.len();
    let mut labelled: Vec<(String, AnyPuzzle)> = puzzles
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let label = p
                .title()
                .map_or_else(|| format!("puzzle {}", i + 1), str::to_string);
            (label, p)
        })
        .collect();
    if let Some(asked) = options.puzzle {
        if asked == 0 || asked > count {
            return Err(InputError::NoSuchPuzzle { name, asked, count });
        }
        labelled = vec![labelled.swap_remove(asked - 1)];
    }
    if let Some(givens) = options.givens {
        let givens_name = input_name(givens);
        let bytes = read_input(givens)?;
        for (_, puzzle) in &mut labelled {
            puzzle
                .add_givens_text(&bytes)
                .map_err(|error| InputError::Parse {
                    message: at(&givens_name, &error),
                    error,
                })?;
        }
    }
    Ok(labelled)
}

impl AnyPuzzle {
    /// Adds the givens of a givens file (`ROW COL [VALUE]` lines, 1-based; VALUE `#`/`1` or
    /// `.`/`0`, or a colour's name or character, and for a colour puzzle its number), checked
    /// against the puzzle's size and against each other.
    pub fn add_givens_text(&mut self, bytes: &[u8]) -> Result<(), ParseError> {
        match self {
            AnyPuzzle::Bw(p) => {
                read_numbered_givens_in(bytes, &p.colors.palette()).and_then(|g| add_givens(p, &g))
            }
            AnyPuzzle::Color(p) => color_givens::read_raw_givens(bytes)
                .and_then(|givens| color_givens::add_color_givens(p, &givens)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_named_for_one_format_holding_another_says_which() {
        let text = "2 2\n1\n1\n1\n";
        let err = read_any_puzzles(text.as_bytes(), None, Some(Path::new("x.g")))
            .expect_err("not an Olšák file");
        let message = err.located("x.g", None, Some(Path::new("x.g")), text.as_bytes());
        assert!(message.starts_with("x.g:"), "{message}");
        assert!(
            message.contains("(read as g because of the file name; "),
            "{message}"
        );
        // With the format given, or without a path, no hint.
        let given = err.located("x.g", Some(Format::Olsak), None, text.as_bytes());
        assert_eq!(given, at("x.g", &err));
    }

    #[test]
    fn whole_file_errors_have_no_line() {
        let err = ParseError::new(0, ParseErrorKind::Empty);
        assert_eq!(
            err.located("f", None, None, b""),
            format!("f: {}", ParseErrorKind::Empty)
        );
        let err = ParseError::new(0, ParseErrorKind::UnknownFormat);
        assert!(
            err.located("f", None, None, b"?")
                .ends_with(" with --format FMT")
        );
    }

    #[test]
    fn labels_and_givens_apply_to_every_puzzle() {
        let dir = tempfile::tempdir().expect("a folder");
        let givens = dir.path().join("givens.txt");
        std::fs::write(&givens, "1 1 #\n").expect("writes");
        let path = Path::new("puzzles/ambiguous.txt");
        let options = ReadOptions {
            givens: Some(&givens),
            ..ReadOptions::default()
        };
        let read = read_labelled(path, &options).expect("reads");
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].0, "puzzle 1");
        let AnyPuzzle::Bw(puzzle) = &read[0].1 else {
            panic!("black and white");
        };
        assert_eq!(puzzle.givens.len(), 1);
        std::fs::write(&givens, "1 1 #\n99 1 #\n").expect("writes");
        let err = read_labelled(path, &options).expect_err("out of the grid");
        let shown = input_name(&givens);
        assert!(
            err.to_string().starts_with(&format!("{shown}:2: ")),
            "{err}"
        );
        let third = ReadOptions {
            puzzle: Some(3),
            ..ReadOptions::default()
        };
        let err = read_labelled(path, &third).expect_err("one puzzle");
        let expected = "puzzles/ambiguous.txt: --puzzle 3 asked, but the file holds 1 puzzle";
        assert_eq!(err.to_string(), expected);
    }

    #[test]
    fn missing_and_oversized_inputs_are_named() {
        let err = read_input(Path::new("no/such/file")).expect_err("missing");
        assert_eq!(err.to_string(), "cannot read no/such/file");
        assert!(matches!(err, InputError::Io { .. }));
        assert_eq!(input_name(Path::new("-")), "<stdin>");
        assert_eq!(input_name(Path::new("a\nb")), "a\\nb");
    }
}
