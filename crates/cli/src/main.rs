//! The `nonoenum` command: parses arguments, runs a command, maps errors to exit codes.

/// `eprintln!` that ignores a failure: a closed standard error must not stop a run.
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod checkpoint;
mod cli;
mod commands;
mod convert;
mod exact;
mod fault;
#[cfg(test)]
mod fuzz_cases;
mod images;
mod input;
mod output;
mod parts;
mod stop;

use std::process::ExitCode;

use clap::FromArgMatches;

fn main() -> ExitCode {
    stop::mark_start();
    let matches = cli::command().get_matches();
    let cli = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    fault::install_hook();
    // A panic that reaches here was kept by the hook, which the line below reports.
    let result = std::panic::catch_unwind(|| commands::run(cli));
    let error = match &result {
        Ok(Ok(_)) | Err(_) => None,
        Ok(Err(err)) => Some(err),
    };
    if let Some(line) = fault::internal_error_line(error, result.is_err()) {
        note!("{line}");
        return ExitCode::from(stop::EXIT_INTERNAL);
    }
    match result {
        Ok(Ok(code)) => code,
        Ok(Err(err)) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Ok(Err(err)) => {
            // The same prefix as the errors clap reports for bad arguments.
            note!("error: {err:#}");
            ExitCode::from(stop::EXIT_BAD_INPUT)
        }
        Err(_) => ExitCode::from(stop::EXIT_INTERNAL),
    }
}
