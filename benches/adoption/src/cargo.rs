//! `cargo` runs timed two ways: wall time, and the user+sys CPU time of cargo and
//! every process it waited for (rustc, build scripts, the linker), which a loaded
//! machine disturbs much less.

use std::io;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The cost of one cargo run.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cost {
    /// Wall-clock time.
    pub wall: Duration,
    /// User + system CPU time of the cargo process tree.
    pub cpu: Duration,
}

/// The CPU time of every child this process has waited for so far.
fn children_cpu() -> Duration {
    cpu_of(libc::RUSAGE_CHILDREN)
}

/// User + system CPU time of `who` (`RUSAGE_SELF`, `RUSAGE_CHILDREN`).
fn cpu_of(who: libc::c_int) -> Duration {
    // SAFETY: `getrusage` writes one `rusage` struct, which is zeroed memory here.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// Runs `mcpdesc <args>` in this process (the CLI's library entry point, the same code
/// as the `mcpdesc` binary) and times it: wall time, and this process's CPU time
/// while it ran (nothing else runs meanwhile). A non-zero exit is an error carrying
/// the CLI's messages.
pub fn mcpdesc(args: &[String]) -> io::Result<Cost> {
    let cpu_before = cpu_of(libc::RUSAGE_SELF);
    let start = Instant::now();
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = std::iter::once("mcpdesc".to_owned()).chain(args.iter().cloned());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    let wall = start.elapsed();
    let cpu = cpu_of(libc::RUSAGE_SELF).saturating_sub(cpu_before);
    if code != 0 {
        return Err(io::Error::other(format!(
            "`mcpdesc {}` exited {code}:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&err)
        )));
    }
    Ok(Cost { wall, cpu })
}

/// Runs `cargo <args> --offline` in `dir` with its own `target/`, and times it. A
/// failed build is an error carrying cargo's output.
pub fn run(dir: &Path, args: &[&str]) -> io::Result<Cost> {
    let cpu_before = children_cpu();
    let start = Instant::now();
    let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        // The crate's own target directory, whatever the caller's environment says.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()?;
    let wall = start.elapsed();
    let cpu = children_cpu().saturating_sub(cpu_before);
    if !output.status.success() {
        return Err(io::Error::other(format!(
            "`cargo {}` in {} failed:\n{}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&output.stderr)
        )));
    }
    Ok(Cost { wall, cpu })
}
