//! Reading the puzzles a command works on: the library's [`nonoenum::read_labelled`] (the
//! file or standard input, the format, the `--givens` file, errors that name the file and
//! line, the `--puzzle` selection).

use std::path::Path;

use nonoenum::{AnyPuzzle, ReadOptions};

use crate::cli::Settings;

pub(crate) use nonoenum::input_name as display_name;

/// The bytes of a file, or of standard input for `-` (the library's [`nonoenum::read_input`]).
pub(crate) fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    Ok(nonoenum::read_input(path)?)
}

/// The puzzles to run, black-and-white or colour, with `--puzzle` and `--givens` applied.
pub(crate) fn load_any(settings: &Settings) -> anyhow::Result<Vec<(String, AnyPuzzle)>> {
    let options = ReadOptions {
        format: settings.format,
        puzzle: settings.puzzle,
        givens: settings.givens.as_deref(),
    };
    Ok(nonoenum::read_labelled(&settings.file, &options)?)
}
