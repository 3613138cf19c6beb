//! Files a command writes (`mate --kif OUT`): never one of the command's own inputs, and
//! never a file that is already there unless `--force` says so.
//!
//! `mate --file p.csa --kif p.csa` used to replace the problem with its solution, silently,
//! and any other existing file went the same way. Both checks run before the search, so a
//! refusal costs nothing; the write itself then creates the file exclusively (without
//! `--force`), so a file that appeared during the search is not replaced either. Links are
//! followed: the file checked and written is the one a link names, and the link stays.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Checks that `out`, the value of `option`, may be written: refused when it is one of
/// `inputs` (the same file, through whatever names or links) even with `force`, and
/// refused when it exists unless `force`.
pub fn check_output(out: &Path, option: &str, force: bool, inputs: &[&Path]) -> Result<(), String> {
    let shown = out.display();
    let meta = match std::fs::metadata(out) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{option} {shown}: {e}")),
    };
    if meta.is_dir() {
        return Err(format!("{option} {shown} is a directory: name a file"));
    }
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|m| same_file(&meta, &m, out, input)) {
            return Err(format!(
                "{option} {shown} is also an input ({}): writing it would destroy it; \
                 choose another file",
                input.display()
            ));
        }
    }
    if force {
        Ok(())
    } else {
        Err(exists(out, option))
    }
}

/// Writes `bytes` to `out`, which [`check_output`] has accepted: as a new file unless
/// `force`, so that a file created since the check is not replaced either.
pub fn write_output(out: &Path, option: &str, force: bool, bytes: &[u8]) -> Result<(), String> {
    let mut open = std::fs::OpenOptions::new();
    open.write(true);
    if force {
        open.create(true).truncate(true);
    } else {
        open.create_new(true);
    }
    let failed = |e: std::io::Error| format!("writing {}: {e}", out.display());
    let mut file = open.open(followed(out)).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            exists(out, option)
        } else {
            failed(e)
        }
    })?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(failed)
}

/// `path` with the links it names followed, even to a file that does not exist yet: a new
/// file must not be refused (`create_new` fails on any link) nor written in the link's
/// place (`estimate --out` writes its checkpoints beside the file and renames them over it,
/// which would replace a link). A link that cannot be read, or a chain of 40, is left to
/// the write to report.
pub fn followed(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    // `read_link` fails on anything that is no link: the end of the chain.
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(dir) => dir.join(target),
            None => target,
        };
    }
    path
}

fn exists(out: &Path, option: &str) -> String {
    format!(
        "{option} {} exists: give --force to replace it, or choose another file",
        out.display()
    )
}

/// Whether two paths that both exist are one file: the same device and inode on Unix, where
/// hard links and bind mounts give one file several names; the same canonical path
/// elsewhere.
#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata, _: &Path, _: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata, a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
