//! The adoption benchmark (issues 31, 41): what a server crate costs with mcpdesc's
//! `build.rs` front end, and with the module generated ahead of time by `mcpdesc
//! generate` and checked in, against the same greeter tool hand-written with rmcp's
//! `#[tool]`.
//!
//! ```text
//! cargo run -p mcpdesc-bench-adoption [-- --dir DIR] [--keep] [--timings]
//! ```
//!
//! It writes the three crates into a fresh temporary directory (or `DIR`, which must not
//! exist), each with path dependencies on this checkout and a copy of its `Cargo.lock`
//! (`--offline`: no network), and measures, each from an empty target directory:
//!
//! - the first `cargo build` (debug): wall time and the CPU time of cargo and its
//!   children (user + sys; trust this one on a loaded machine);
//! - the rebuild after a one-word edit of the tool description (the description file,
//!   resp. the `#[tool(description = ...)]` string); for the ahead-of-time crate it
//!   includes the `mcpdesc generate` run that rewrites the module (the first build
//!   does not: that module is checked in, generated once by its author);
//! - `cargo build --release`, the size of the release binary after `strip`;
//! - the server's peak resident memory (`VmHWM`) after `initialize` and 100
//!   `tools/call`s over stdio.
//!
//! It prints every figure, the ratios of each generated crate to the hand-written one
//! and the goals of issues 31 and 41. `--timings` passes `--timings` to the first builds (cargo's HTML report stays
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
    let crates = [
        crates::generated(root, workspace)?,
        crates::ahead_of_time(root, workspace)?,
        crates::handwritten(root, workspace)?,
    ];
    let mut figures = Vec::new();
    for krate in &crates {
        eprintln!(
            "measuring the {} crate in {}",
            krate.label,
            krate.dir.display()
        );
        figures.push((krate.label, measure(krate, timings)?));
    }
    let (baseline, generated) = figures.split_last().expect("three crates");
    report(generated, &baseline.1);
    Ok(())
}

fn measure(krate: &Crate, timings: bool) -> std::io::Result<Figures> {
    if let Some(args) = &krate.regenerate {
        // The author's one-time step: the module the crate checks in.
        let cost = cargo::mcpdesc(args)?;
        eprintln!("  mcpdesc generate: {:.2} s", secs(cost.wall));
    }
    let mut first_args = vec!["build"];
    if timings {
        first_args.push("--timings");
    }
    let first = cargo::run(&krate.dir, &first_args)?;
    krate.edit_description()?;
    let regenerated = match &krate.regenerate {
        Some(args) => cargo::mcpdesc(args)?,
        None => Cost::default(),
    };
    let build = cargo::run(&krate.dir, &["build"])?;
    let rebuild = Cost {
        wall: regenerated.wall + build.wall,
        cpu: regenerated.cpu + build.cpu,
    };
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

fn report(generated: &[(&str, Figures)], handwritten: &Figures) {
    let h = handwritten;
    type Figure = fn(&Figures) -> f64;
    let rows: [(&str, Figure, Option<f64>); 6] = [
        ("first build, wall (s)", |f| secs(f.first.wall), Some(1.5)),
        ("first build, CPU (s)", |f| secs(f.first.cpu), Some(1.5)),
        (
            "rebuild after edit, wall (s)",
            |f| secs(f.rebuild.wall),
            None,
        ),
        (
            "rebuild after edit, CPU (s)",
            |f| secs(f.rebuild.cpu),
            Some(1.2),
        ),
        (
            "stripped release binary (KiB)",
            |f| f.stripped_bytes as f64 / 1024.0,
            Some(2.0),
        ),
        (
            "peak RSS, init + 100 calls (KiB)",
            |f| f.rss_kib as f64,
            Some(1.3),
        ),
    ];
    print!("{:<34}", "");
    for (label, _) in generated {
        print!(" {label:>14} {:>7}", "ratio");
    }
    println!(" {:>13}  goal", "hand-written");
    for (name, figure, goal) in rows {
        print!("{name:<34}");
        let mut verdicts = Vec::new();
        for (label, g) in generated {
            let r = ratio(figure(g), figure(h));
            print!(" {:>14.1} {r:>6.2}x", figure(g));
            if let Some(limit) = goal {
                let met = if r <= limit { "met" } else { "missed" };
                verdicts.push(format!("{label} {met}"));
            }
        }
        let goal = match goal {
            Some(limit) => format!("<= {limit}: {}", verdicts.join(", ")),
            None => String::new(),
        };
        println!(" {:>13.1}  {goal}", figure(h));
    }
    println!(
        "CPU = user + sys of cargo and its children (getrusage); the machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
}
