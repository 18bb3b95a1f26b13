//! Reading the puzzles a command works on: the file (or standard input), the format, the
//! `--puzzle` selection and the `--givens` file, with errors that name the file and line.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, anyhow, bail};
use nonoenum::AnyPuzzle;
use nonoenum::format::{self, Format, MAX_INPUT_BYTES, ParseError, ParseErrorKind};

use crate::cli::Settings;

/// The name to show for a path in messages (`<stdin>` for `-`), control characters escaped so
/// that a message stays on one line.
pub(crate) fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        return "<stdin>".to_string();
    }
    nonoenum::files::shown_path(path)
}

/// The bytes of a file, or of standard input for `-`, at most [`MAX_INPUT_BYTES`].
pub(crate) fn read_bytes(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path == Path::new("-") {
        return read_capped(std::io::stdin().lock(), "standard input", "<stdin>");
    }
    let name = display_name(path);
    let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    read_capped(file, &name, &name)
}

/// All of `reader`, which `what` (in a read error) and `name` (for one too large) call it;
/// an input larger than [`MAX_INPUT_BYTES`] is refused after reading one byte past the limit,
/// so that `/dev/zero` or an endless pipe never fills the memory.
pub(crate) fn read_capped(reader: impl Read, what: &str, name: &str) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let _ = reader
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what}"))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "{name}: larger than {} MiB, the most nonoenum reads of one input",
            MAX_INPUT_BYTES >> 20
        );
    }
    Ok(bytes)
}

/// `FILE:LINE: problem`, or `FILE: problem` for errors about the whole file.
fn at(name: &str, err: &ParseError) -> String {
    if err.line > 0 {
        format!("{name}:{}: {}", err.line, err.kind)
    } else {
        format!("{name}: {}", err.kind)
    }
}

/// A puzzle file's parse error, located (see [`at`]). When the file's extension chose its
/// format (no `--format`) and its content does not look like that format, the message says
/// so and names `--format`.
pub(crate) fn located(
    name: &str,
    err: &ParseError,
    given: Option<Format>,
    path: Option<&Path>,
    bytes: &[u8],
) -> anyhow::Error {
    let mut message = at(name, err);
    if matches!(err.kind, ParseErrorKind::UnknownFormat) {
        message.push_str(" with --format FMT");
    }
    let (None, Some(path)) = (given, path) else {
        return anyhow!("{message}");
    };
    if matches!(err.kind, ParseErrorKind::Empty) {
        return anyhow!("{message}");
    }
    let text = String::from_utf8_lossy(bytes);
    let (Some(named), content) = (
        Format::detect(Some(path), &text),
        Format::detect(None, &text),
    ) else {
        return anyhow!("{message}");
    };
    // Content alone cannot tell .mk, .nin and .pzl files: they look like plain ones, or nothing.
    let unsure = matches!(named, Format::Mk | Format::Nin | Format::Pzl)
        && matches!(content, None | Some(Format::Plain));
    let hint = match content {
        _ if content == Some(named) || unsure => None,
        Some(other) => Some(format!(
            "its content looks like {0}: try --format {0}",
            other.name()
        )),
        None => Some("give its format with --format FMT".to_string()),
    };
    match hint {
        Some(hint) => anyhow!(
            "{message} (read as {} because of the file name; {hint})",
            named.name()
        ),
        _ => anyhow!("{message}"),
    }
}

/// The puzzles to run, black-and-white or colour, with `--puzzle` and `--givens` applied.
pub(crate) fn load_any(settings: &Settings) -> anyhow::Result<Vec<(String, AnyPuzzle)>> {
    let name = display_name(&settings.file);
    let bytes = read_bytes(&settings.file)?;
    let path = (settings.file != Path::new("-")).then_some(settings.file.as_path());
    let puzzles = format::read_any_puzzles(&bytes, settings.format, path)
        .map_err(|e| located(&name, &e, settings.format, path, &bytes))?;
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
    if let Some(n) = settings.puzzle {
        if n > count {
            let puzzles = if count == 1 { "puzzle" } else { "puzzles" };
            bail!("{name}: --puzzle {n} asked, but the file holds {count} {puzzles}");
        }
        labelled = vec![labelled.swap_remove(n - 1)];
    }
    if let Some(givens_path) = &settings.givens {
        let givens_name = display_name(givens_path);
        let bytes = read_bytes(givens_path)?;
        for (_, puzzle) in &mut labelled {
            let added = match puzzle {
                AnyPuzzle::Bw(p) => format::read_numbered_givens(&bytes)
                    .and_then(|givens| format::add_givens(p, &givens)),
                AnyPuzzle::Color(p) => format::color_givens::read_raw_givens(&bytes)
                    .and_then(|givens| format::color_givens::add_color_givens(p, &givens)),
            };
            added.map_err(|e| anyhow!("{}", at(&givens_name, &e)))?;
        }
    }
    Ok(labelled)
}
