//! `completions`, `man` and `help`: the command line's own description, as clap knows it,
//! written as a shell completion script, a manual page (roff) or help text.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::bail;

/// The clap command, built (so that subcommands know their full names, `nonoenum solve`).
fn built() -> clap::Command {
    let mut command = crate::cli::command();
    command.build();
    command
}

/// The subcommand called `name`, or an error that lists the commands.
fn subcommand(command: &clap::Command, name: &str) -> anyhow::Result<clap::Command> {
    if let Some(found) = command.find_subcommand(name) {
        return Ok(found.clone());
    }
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    bail!("no command `{name}` (the commands: {})", names.join(", "))
}

/// `nonoenum completions SHELL`.
pub(super) fn completions(shell: clap_complete::Shell) -> anyhow::Result<ExitCode> {
    let mut command = crate::cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nonoenum", &mut script);
    write_out(&script)
}

/// `nonoenum man [COMMAND]`: the page of the tool, or of one command (`nonoenum-COMMAND`).
pub(super) fn man(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let command = built();
    let page = match name {
        None => command,
        // The footer names the tool's version.
        Some(name) => subcommand(&command, name)?.version(env!("CARGO_PKG_VERSION")),
    };
    let mut roff = Vec::new();
    clap_mangen::Man::new(page).render(&mut roff)?;
    write_out(&roff)
}

/// `nonoenum help [COMMAND]`: the long help of the tool, or of one command.
pub(super) fn help(name: Option<&str>) -> anyhow::Result<ExitCode> {
    let command = built();
    let mut page = match name {
        None => command,
        Some(name) => subcommand(&command, name)?,
    };
    let text = page.render_long_help().to_string();
    write_out(text.as_bytes())
}

/// Writes `bytes` to standard output.
fn write_out(bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
