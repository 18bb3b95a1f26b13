//! Internal errors: a panic anywhere stops the run, and the command ends with one line that
//! names the puzzle and asks for a report, instead of backtraces.

use std::panic::PanicHookInfo;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use nonoenum::{CountFailure, SolveError};

/// What a panic said, with where: the first of the run.
static FIRST_PANIC: OnceLock<String> = OnceLock::new();
/// The cancel flags of the runs under way, raised by a panic.
static CANCELS: Mutex<Vec<Arc<AtomicBool>>> = Mutex::new(Vec::new());
/// The puzzle being solved, for the error line.
static SOLVING: Mutex<String> = Mutex::new(String::new());

/// Replaces the panic report: a panic is kept, stops every run, and prints nothing (with
/// `RUST_BACKTRACE` set, the first still prints the standard report, for a bug report).
pub(crate) fn install_hook() {
    let standard = std::panic::take_hook();
    let backtrace = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0");
    std::panic::set_hook(Box::new(move |info: &PanicHookInfo<'_>| {
        let first = FIRST_PANIC.set(describe(info)).is_ok();
        for flag in CANCELS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            flag.store(true, Ordering::Relaxed);
        }
        if first && backtrace {
            standard(info);
        }
    }));
}

/// The message of a panic, and where it happened.
fn describe(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string());
    match info.location() {
        Some(at) => format!("{message} (at {}:{})", at.file(), at.line()),
        None => message,
    }
}

/// Raises `flag` when anything panics from now on.
pub(crate) fn cancel_on_panic(flag: Arc<AtomicBool>) {
    CANCELS.lock().unwrap_or_else(|e| e.into_inner()).push(flag);
}

/// Names the puzzle the next internal error is reported against.
pub(crate) fn solving(puzzle: &str) {
    let mut name = SOLVING.lock().unwrap_or_else(|e| e.into_inner());
    name.clear();
    name.push_str(puzzle);
}

/// The line to print when the run met a bug: a panic the hook kept (`panicked`: one reached
/// `main`), or one that the library caught and `error` carries. `None` when it met none.
pub(crate) fn internal_error_line(error: Option<&anyhow::Error>, panicked: bool) -> Option<String> {
    let from_library = error.and_then(|e| {
        e.chain().find_map(|cause| match cause.downcast_ref() {
            Some(SolveError::Internal(message)) => Some(message.clone()),
            _ => match cause.downcast_ref() {
                Some(CountFailure::Internal(message)) => Some(message.clone()),
                _ => None,
            },
        })
    });
    let message = FIRST_PANIC
        .get()
        .cloned()
        .or(from_library)
        .or_else(|| panicked.then(|| "a panic".to_string()))?;
    let puzzle = SOLVING.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let puzzle = if puzzle.is_empty() {
        "the input".to_string()
    } else {
        puzzle
    };
    Some(format!(
        "error: internal error while solving {puzzle}: {message}; please report it"
    ))
}
