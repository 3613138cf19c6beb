//! How much more memory this process can get, read from Linux's files: the memory the
//! machine has available, the room left under the cgroup's limit (a container, a batch
//! job), and the address space left under `ulimit -v`. Elsewhere, or when a file is
//! missing or unreadable, that bound is unknown and nothing is refused for it.
//!
//! Committed memory and address space are different budgets: a thread's stack is reserved
//! (address space) but mostly never touched (memory), while a transposition table is
//! written through when it is made, so it takes both.

/// What the process can still take, in bytes; `None` where no bound is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Room {
    /// Memory that can still be committed: the smaller of the machine's available memory
    /// and the room under the cgroup's limit.
    pub memory: Option<u64>,
    /// Address space left under the process's limit (`ulimit -v`).
    pub address_space: Option<u64>,
}

/// Reads the bounds that apply to this process now.
pub fn room() -> Room {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let available = read("/proc/meminfo").and_then(|t| mem_available(&t));
    let cgroup = read("/proc/self/cgroup")
        .and_then(|t| cgroup_dir(&t))
        .map(|dir| format!("/sys/fs/cgroup{dir}"))
        .into_iter()
        .chain(["/sys/fs/cgroup".to_string()])
        .find_map(|dir| {
            let max = memory_max(&read(&format!("{dir}/memory.max"))?)?;
            // Page cache can be reclaimed: what is taken for good is anonymous memory,
            // or all that is charged when the statistics are not there.
            let used = read(&format!("{dir}/memory.stat"))
                .and_then(|t| stat_field(&t, "anon"))
                .or_else(|| read(&format!("{dir}/memory.current"))?.trim().parse().ok())?;
            Some(max.saturating_sub(used))
        });
    let address_space = read("/proc/self/limits")
        .and_then(|t| address_space_limit(&t))
        .and_then(|limit| {
            let used = read("/proc/self/status").and_then(|t| vm_size(&t))?;
            Some(limit.saturating_sub(used))
        });
    Room {
        memory: min_known(available, cgroup),
        address_space,
    }
}

/// The smaller of two bounds, either of which may be unknown.
fn min_known(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A `Name:   1234 kB` line of `/proc/meminfo` or `/proc/self/status`, in bytes.
fn kb_field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix(name)?.strip_prefix(':')?;
        let kb: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
        kb.checked_mul(1024)
    })
}

/// `MemAvailable` of `/proc/meminfo`: what the kernel reckons can be allocated without
/// swapping.
fn mem_available(meminfo: &str) -> Option<u64> {
    kb_field(meminfo, "MemAvailable")
}

/// `VmSize` of `/proc/self/status`: the address space in use.
fn vm_size(status: &str) -> Option<u64> {
    kb_field(status, "VmSize")
}

/// The soft limit of `Max address space` in `/proc/self/limits`, `None` when unlimited.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// The cgroup v2 directory of `/proc/self/cgroup` (its `0::<dir>` line).
fn cgroup_dir(cgroup: &str) -> Option<String> {
    cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(|dir| dir.trim_end_matches('/').to_string())
}

/// A cgroup's `memory.max`: bytes, or `None` for `max` (no limit).
fn memory_max(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// A `name value` line of a cgroup's `memory.stat`.
fn stat_field(stat: &str, name: &str) -> Option<u64> {
    stat.lines().find_map(|l| {
        let (key, value) = l.split_once(' ')?;
        (key == name).then(|| value.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_read() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   2000 kB\n";
        assert_eq!(mem_available(meminfo), Some(2000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(
            vm_size("Name:\tx\nVmPeak:\t  9 kB\nVmSize:\t  8 kB\n"),
            Some(8192)
        );
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         4096000000           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(4_096_000_000));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert_eq!(
            cgroup_dir("0::/user.slice/job-7\n"),
            Some("/user.slice/job-7".into())
        );
        assert_eq!(cgroup_dir("0::/\n"), Some(String::new()));
        assert_eq!(cgroup_dir("12:memory:/x\n"), None);
        assert_eq!(memory_max("max\n"), None);
        assert_eq!(memory_max("4294967296\n"), Some(1 << 32));
        assert_eq!(stat_field("anon 4096\nfile 100\n", "anon"), Some(4096));
        assert_eq!(stat_field("anon_thp 0\nanon 5\n", "anon"), Some(5));
        assert_eq!(min_known(Some(3), None), Some(3));
        assert_eq!(min_known(Some(3), Some(2)), Some(2));
        assert_eq!(min_known(None, None), None);
    }
}
