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

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            if output::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("nonoenum: error: {err:#}");
            ExitCode::from(stop::EXIT_BAD_INPUT)
        }
    }
}
