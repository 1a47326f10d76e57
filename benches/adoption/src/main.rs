//! The adoption benchmark (issue 31): what a server crate costs with mcpdesc's
//! `build.rs` front end against the same greeter tool hand-written with rmcp's
//! `#[tool]`.
//!
//! ```text
//! cargo run -p mcpdesc-bench-adoption [-- --dir DIR] [--keep] [--timings]
//! ```
//!
//! It writes both crates into a fresh temporary directory (or `DIR`, which must not
//! exist), each with path dependencies on this checkout and a copy of its `Cargo.lock`
//! (`--offline`: no network), and measures, each from an empty target directory:
//!
//! - the first `cargo build` (debug): wall time and the CPU time of cargo and its
//!   children (user + sys; trust this one on a loaded machine);
//! - the rebuild after a one-word edit of the tool description (the description file,
//!   resp. the `#[tool(description = ...)]` string);
//! - `cargo build --release`, the size of the release binary after `strip`;
//! - the server's peak resident memory (`VmHWM`) after `initialize` and 100
//!   `tools/call`s over stdio.
//!
//! It prints every figure, the ratios generated / hand-written and the goals of issue
//! 31. `--timings` passes `--timings` to the first builds (cargo's HTML report stays
//! in each crate's `target/cargo-timings/`; add `--keep` to read it). The temporary
//! directory is removed at the end unless `--keep`.

mod cargo;
mod crates;
mod probe;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use cargo::Cost;
use crates::Crate;

/// The figures of one crate.
#[derive(Debug, Clone, Copy)]
struct Figures {
    first: Cost,
    rebuild: Cost,
    stripped_bytes: u64,
    rss_kib: u64,
}

/// The command line.
struct Args {
    dir: Option<PathBuf>,
    keep: bool,
    timings: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        dir: None,
        keep: false,
        timings: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--dir" => args.dir = Some(it.next().ok_or("--dir needs a directory")?.into()),
            "--keep" => args.keep = true,
            "--timings" => args.timings = true,
            other => {
                return Err(format!(
                    "unknown argument `{other}` (use --dir DIR, --keep, --timings)"
                ))
            }
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let workspace = workspace.canonicalize().unwrap_or(workspace);
    let root = args.dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("mcpdesc-adoption-{}", std::process::id()))
    });
    if root.exists() {
        eprintln!(
            "error: {} exists; the benchmark needs a fresh directory",
            root.display()
        );
        return ExitCode::from(2);
    }
    let outcome = measure_all(&root, &workspace, args.timings);
    if args.keep {
        eprintln!("kept {}", root.display());
    } else {
        let _ = std::fs::remove_dir_all(&root);
    }
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn measure_all(root: &Path, workspace: &Path, timings: bool) -> std::io::Result<()> {
    let generated = crates::generated(root, workspace)?;
    let handwritten = crates::handwritten(root, workspace)?;
    let mut figures = Vec::new();
    for krate in [&generated, &handwritten] {
        eprintln!(
            "measuring the {} crate in {}",
            krate.label,
            krate.dir.display()
        );
        figures.push(measure(krate, timings)?);
    }
    report(&figures[0], &figures[1]);
    Ok(())
}

fn measure(krate: &Crate, timings: bool) -> std::io::Result<Figures> {
    let mut first_args = vec!["build"];
    if timings {
        first_args.push("--timings");
    }
    let first = cargo::run(&krate.dir, &first_args)?;
    krate.edit_description()?;
    let rebuild = cargo::run(&krate.dir, &["build"])?;
    cargo::run(&krate.dir, &["build", "--release"])?;
    let binary = krate.dir.join("target/release").join(krate.bin);
    let stripped = krate.dir.join(format!("{}.stripped", krate.bin));
    let status = Command::new("strip")
        .arg("-o")
        .arg(&stripped)
        .arg(&binary)
        .status()?;
    if !status.success() {
        return Err(std::io::Error::other(format!(
            "strip {} failed",
            binary.display()
        )));
    }
    let stripped_bytes = std::fs::metadata(&stripped)?.len();
    let rss_kib = probe::peak_rss_kib(&binary)?;
    Ok(Figures {
        first,
        rebuild,
        stripped_bytes,
        rss_kib,
    })
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        f64::NAN
    }
}

fn report(generated: &Figures, handwritten: &Figures) {
    let g = generated;
    let h = handwritten;
    let kib = |bytes: u64| bytes as f64 / 1024.0;
    let rows: Vec<(&str, f64, f64, Option<f64>)> = vec![
        (
            "first build, wall (s)",
            secs(g.first.wall),
            secs(h.first.wall),
            None,
        ),
        (
            "first build, CPU (s)",
            secs(g.first.cpu),
            secs(h.first.cpu),
            Some(1.5),
        ),
        (
            "rebuild after edit, wall (s)",
            secs(g.rebuild.wall),
            secs(h.rebuild.wall),
            None,
        ),
        (
            "rebuild after edit, CPU (s)",
            secs(g.rebuild.cpu),
            secs(h.rebuild.cpu),
            Some(1.2),
        ),
        (
            "stripped release binary (KiB)",
            kib(g.stripped_bytes),
            kib(h.stripped_bytes),
            Some(2.0),
        ),
        (
            "peak RSS, init + 100 calls (KiB)",
            g.rss_kib as f64,
            h.rss_kib as f64,
            Some(1.3),
        ),
    ];
    println!(
        "{:<40} {:>12} {:>13} {:>7}  goal",
        "", "generated", "hand-written", "ratio"
    );
    for (name, a, b, goal) in rows {
        let r = ratio(a, b);
        let goal = match goal {
            Some(limit) if r <= limit => format!("<= {limit} (met)"),
            Some(limit) => format!("<= {limit} (missed)"),
            None => String::new(),
        };
        println!("{name:<40} {a:>12.1} {b:>13.1} {r:>6.2}x  {goal}");
    }
    println!(
        "CPU = user + sys of cargo and its children (getrusage); the machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
}
