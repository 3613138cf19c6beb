//! Standard output for every command, with one convention for a reader that goes away.
//!
//! `shogi-count perft --divide 5 | head -1` closes the pipe while the command still has
//! lines to write. Rust ignores SIGPIPE, so the write fails with `BrokenPipe`; `println!`
//! turns that into a panic (exit 101 and a message about a bug that is none). Every command
//! writes through [`Stdout`] instead, which stops the process quietly with exit code
//! [`CLOSED_PIPE`], the code a shell reports for a C tool that SIGPIPE killed: the output
//! was cut short, which a script with `set -o pipefail` may want to know, but nothing went
//! wrong. Any other write error (a full disk under `> file`) is returned, and the command
//! fails with exit code 1 and [`error`]'s message.
//!
//! Standard error gets the same care: [`note_args`] (and the [`note!`] macro) write there without
//! the panic `eprintln!` has for a closed pipe.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code when the reader of standard output has gone away: 128 + SIGPIPE (13).
pub const CLOSED_PIPE: i32 = 141;

/// Standard output, locked: a [`Write`] whose `BrokenPipe` errors end the process quietly
/// with [`CLOSED_PIPE`]. It is line-buffered, as `println!` is, so a line is out as soon as
/// it is written.
pub struct Stdout {
    out: io::StdoutLock<'static>,
}

/// Standard output for a command's results.
pub fn stdout() -> Stdout {
    Stdout {
        out: io::stdout().lock(),
    }
}

/// Ends the process without a word: whoever was reading the output no longer wants it.
fn closed() -> ! {
    std::process::exit(CLOSED_PIPE)
}

fn check<T>(result: io::Result<T>) -> io::Result<T> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => closed(),
        other => other,
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        check(self.out.write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        check(self.out.write_all(buf))
    }

    fn flush(&mut self) -> io::Result<()> {
        check(self.out.flush())
    }
}

/// The message of a write error that is not a closed pipe.
pub fn error(e: io::Error) -> String {
    format!("writing the output: {e}")
}

/// Writes `text` to standard output and flushes it; a closed pipe ends the process as
/// [`Stdout`] does.
pub fn print(text: &str) -> Result<(), String> {
    let mut out = stdout();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(error)
}

/// Whether a write to standard error met a closed pipe: its reader went away, as
/// `shogi-count perft 5 2>&1 >out.txt | true` does.
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes one line to standard error, where `eprintln!` would panic when standard error is
/// a closed pipe (exit 101, and the work of a long run lost with it).
///
/// A closed standard error does not stop the command: its notes and progress are only for
/// a reader who is gone, while its results still go to standard output (a file, perhaps),
/// so the command finishes them and then exits with [`CLOSED_PIPE`], as it does for a closed
/// standard output ([`stderr_closed`] tells a long run that it may stop early instead).
/// Any other failure to write there is ignored: there is no one left to tell.
pub fn note_args(args: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    if let Err(e) = err.write_fmt(args).and_then(|()| err.write_all(b"\n")) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            STDERR_CLOSED.store(true, Ordering::Relaxed);
        }
    }
}

/// [`note_args`] without the line end, for text that brings its own (clap's usage errors).
pub fn note_text(text: &str) {
    let mut err = io::stderr().lock();
    if let Err(e) = err.write_all(text.as_bytes()).and_then(|()| err.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            STDERR_CLOSED.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether standard error has been found closed: the command should end with
/// [`CLOSED_PIPE`] once its results are out (or, for a run that could go on for hours with
/// no one watching, save its state and stop).
pub fn stderr_closed() -> bool {
    STDERR_CLOSED.load(Ordering::Relaxed)
}

/// `eprintln!` through [`note_args`]: a closed standard error never panics.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::output::note_args(format_args!($($arg)*))
    };
}
pub(crate) use note;
