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

use std::io::{self, Write};

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
