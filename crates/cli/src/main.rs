//! The `nonoenum` command: parses arguments, runs a command, maps errors to exit codes.

mod checkpoint;
mod cli;
mod commands;
mod convert;
mod exact;
mod images;
mod input;
mod output;
mod palette;
mod parts;
mod per_cell;
mod stop;

use std::process::ExitCode;

use clap::FromArgMatches;

fn main() -> ExitCode {
    let matches = cli::command().get_matches();
    let cli = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            if output::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            // The same prefix as the errors clap reports for bad arguments.
            eprintln!("error: {err:#}");
            ExitCode::from(stop::EXIT_BAD_INPUT)
        }
    }
}
