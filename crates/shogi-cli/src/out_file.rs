//! The `--out` file of a run, claimed by one run at a time with an exclusive lock held for the
//! run's life (links are followed first: `files::followed`).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The claim of one run on its `--out` file: an exclusive lock on `F.lock` beside it, released
/// when the run ends (or its process dies: the system releases it). The lock file stays; it
/// holds the last holder's process, host and start, for the message a second run gets.
pub struct Claim {
    _file: File,
}

/// The lock file of `out`.
pub fn lock_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".lock");
    PathBuf::from(s)
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "an unknown host".into())
}

/// Claims `out` for this run, or says which run holds it.
pub fn claim(out: &Path) -> Result<Claim, String> {
    let lock = lock_path(out);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock)
        .map_err(|e| {
            format!(
                "{}: cannot open the lock of {}: {e}",
                lock.display(),
                out.display()
            )
        })?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(format!(
                "{} is in use by another run ({}): two runs on one state file would lose one's \
                 result; wait for it to end, or choose another --out",
                out.display(),
                if holder.is_empty() {
                    "its holder is not recorded".to_string()
                } else {
                    holder.to_string()
                }
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("{}: cannot lock: {e}", lock.display()))
        }
    }
    // Ours now: say who holds it, for the message of a second run.
    let text = format!(
        "process {} on {}, since {}",
        std::process::id(),
        host(),
        shogi_estimate::now_utc()
    );
    let _ = file.set_len(0);
    let _ = file.rewind();
    let _ = file.write_all(text.as_bytes());
    let _ = file.flush();
    Ok(Claim { _file: file })
}
