//! The run-time benchmark: the greeter tool served by the router mcpdesc generates and
//! by a hand-written rmcp `#[tool]` server, side by side in one process.
//!
//! `cargo bench -p mcpdesc-bench-runtime` prints, for each side and the ratio
//! generated / hand-written:
//!
//! 1. per-call time and calls per second over an in-process duplex pipe to an rmcp
//!    client, sequential (one call in flight) and pipelined ([`IN_FLIGHT`] in flight),
//!    against two hand-written servers: rmcp's documented tools-only form (which
//!    builds its `ToolRouter` for every request) and the same keeping the router in a
//!    field; the sides take turns round by round and the median round counts;
//! 2. the resident memory of the two stdio server binaries after [`MEMORY_CALLS`]
//!    calls (peak `VmHWM` and current `VmRSS` from `/proc`, Linux only);
//! 3. the size of the two binaries after `strip`.
//!
//! `MCPDESC_BENCH_QUICK=1` runs a few short rounds (a smoke test of the benchmark).
//! `MCPDESC_BENCH_PROFILE=generated` (or `hand-written`, `hand-written-kept`) only makes calls to that side
//! for about ten seconds, half sequential and half pipelined, and prints nothing else:
//! run it under a profiler (`perf record -g target/release/deps/runtime-*`).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use mcpdesc_bench_runtime::harness::{self, Side};
use rmcp::ServiceExt;

/// Calls in flight in the pipelined mode.
const IN_FLIGHT: usize = 64;
/// Calls each stdio server answers before its memory is read.
const MEMORY_CALLS: usize = 5_000;

struct Plan {
    rounds: usize,
    sequential_calls: usize,
    pipelined_calls: usize,
    memory_runs: usize,
}

fn main() {
    if let Some(side) = std::env::var_os("MCPDESC_BENCH_PROFILE") {
        let side = match side.to_str() {
            Some("generated") => Side::Generated,
            Some("hand-written") => Side::Handwritten,
            Some("hand-written-kept") => Side::HandwrittenStored,
            _ => panic!(
                "MCPDESC_BENCH_PROFILE is `generated`, `hand-written` or `hand-written-kept`"
            ),
        };
        return profile(side);
    }
    let quick = std::env::var_os("MCPDESC_BENCH_QUICK").is_some();
    let plan = if quick {
        Plan {
            rounds: 2,
            sequential_calls: 200,
            pipelined_calls: 1_000,
            memory_runs: 1,
        }
    } else {
        Plan {
            rounds: 11,
            sequential_calls: 4_000,
            pipelined_calls: 20_000,
            memory_runs: 3,
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    println!(
        "greeter tool, generated router vs hand-written rmcp #[tool] server ({} cores)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    runtime.block_on(dispatch(&plan));
    runtime.block_on(memory(&plan));
    sizes();
}

/// Calls to one side only, for a profiler.
fn profile(side: Side) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let client = harness::connect(side).await;
        let end = std::time::Instant::now() + Duration::from_secs(5);
        while std::time::Instant::now() < end {
            harness::sequential(&client, 1_000).await;
        }
        let end = std::time::Instant::now() + Duration::from_secs(5);
        while std::time::Instant::now() < end {
            harness::pipelined(&client, 5_000, IN_FLIGHT).await;
        }
    });
}

/// Per-call time, sequential and pipelined, over the in-process pipe.
async fn dispatch(plan: &Plan) {
    let mut clients = Vec::new();
    for side in Side::ALL {
        clients.push(harness::connect(side).await);
    }
    println!(
        "\ndispatch over tokio::io::duplex (median of {} rounds)",
        plan.rounds
    );
    println!(
        "{:<11} {:<26} {:>10} {:>9} {:>8}",
        "mode", "side", "per call", "calls/s", "ratio"
    );
    let modes: [(&str, usize, usize); 2] = [
        ("sequential", plan.sequential_calls, 1),
        ("pipelined", plan.pipelined_calls, IN_FLIGHT),
    ];
    for (mode, calls, in_flight) in modes {
        // Warm every side up (allocator, caches, rmcp's schema cache).
        for client in &clients {
            run(client, calls / 10, in_flight).await;
        }
        let mut times = [Vec::new(), Vec::new(), Vec::new()];
        for round in 0..plan.rounds {
            // Rotate which side goes first, so drift in machine load hits all.
            for k in 0..clients.len() {
                let side = (round + k) % clients.len();
                let elapsed = run(&clients[side], calls, in_flight).await;
                times[side].push(elapsed.as_secs_f64() / calls as f64);
            }
        }
        let medians = times.map(|mut t| median(&mut t));
        for side in Side::ALL {
            let per_call = medians[side as usize];
            let ratio = match side {
                Side::Generated => String::new(),
                // generated / this side
                _ => format!("{:.2}x", medians[0] / per_call),
            };
            println!(
                "{:<11} {:<26} {:>7.1} µs {:>9.0} {:>8}",
                mode,
                side.label(),
                per_call * 1e6,
                1.0 / per_call,
                ratio
            );
        }
    }
    println!("(ratio: the generated router's per-call time / that server's)");
}

async fn run(client: &harness::Client, calls: usize, in_flight: usize) -> Duration {
    if in_flight == 1 {
        harness::sequential(client, calls).await
    } else {
        harness::pipelined(client, calls, in_flight).await
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The stdio server binaries, built by Cargo for this benchmark (same profile):
/// the generated router, the hand-written server, and the hand-written server with the
/// tool's input schema compiled by `jsonschema` (what any server pays for checking
/// arguments with it). The first is compared with each other one.
const BINARIES: [(&str, &str); 3] = [
    ("generated", env!("CARGO_BIN_EXE_greeter-generated")),
    ("hand-written", env!("CARGO_BIN_EXE_greeter-handwritten")),
    (
        "hand-written + jsonschema",
        env!("CARGO_BIN_EXE_greeter-handwritten-jsonschema"),
    ),
];

/// Resident memory of each stdio server after [`MEMORY_CALLS`] pipelined calls.
async fn memory(plan: &Plan) {
    if !Path::new("/proc/self/status").exists() {
        println!("\nresident memory: not measured (no /proc on this system)");
        return;
    }
    println!(
        "\nresident memory of the stdio servers after {MEMORY_CALLS} calls (median of {} runs)",
        plan.memory_runs
    );
    let mut peaks = Vec::new();
    for (row, (label, path)) in BINARIES.into_iter().enumerate() {
        let mut peak = Vec::new();
        let mut current = Vec::new();
        let mut file = Vec::new();
        for _ in 0..plan.memory_runs {
            let measured = memory_of(Path::new(path)).await;
            peak.push(measured.peak);
            current.push(measured.now);
            file.push(measured.file);
        }
        let peak = median(&mut peak);
        peaks.push(peak);
        println!(
            "{label:<26} peak {peak:>5.1} MB, now {:>5.1} MB (of which mapped files {:>4.1} MB){}",
            median(&mut current),
            median(&mut file),
            ratio(row, peaks[0], peak)
        );
    }
}

/// The generated side's figure `ours` over row `row`'s `theirs` (nothing on the
/// generated side's own row, row 0).
fn ratio(row: usize, ours: f64, theirs: f64) -> String {
    if row == 0 {
        String::new()
    } else {
        format!("   generated / this: {:.2}x", ours / theirs)
    }
}

/// What `/proc/<pid>/status` says of a server, in MB.
struct Resident {
    /// `VmHWM`: the peak resident set.
    peak: f64,
    /// `VmRSS`: the resident set now.
    now: f64,
    /// `RssFile`: the resident pages of mapped files (mostly the binary's code).
    file: f64,
}

/// One run of the stdio server at `path`: [`MEMORY_CALLS`] calls, then its memory.
async fn memory_of(path: &Path) -> Resident {
    let mut child = tokio::process::Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("the server binary starts");
    let pid = child.id().expect("a running child");
    let stdout = child.stdout.take().expect("piped stdout");
    let stdin = child.stdin.take().expect("piped stdin");
    let client = harness::client_info()
        .serve((stdout, stdin))
        .await
        .expect("the client initializes");
    harness::pipelined(&client, MEMORY_CALLS, IN_FLIGHT).await;
    let status =
        std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
    let field = |name: &str| -> f64 {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(f64::NAN, |kb| kb / 1024.0)
    };
    let measured = Resident {
        peak: field("VmHWM:"),
        now: field("VmRSS:"),
        file: field("RssFile:"),
    };
    // Closing stdin ends the server.
    drop(client);
    let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
    measured
}

/// The stripped size of each binary (a copy is stripped in a temporary directory).
fn sizes() {
    let dir = std::env::temp_dir().join(format!("mcpdesc-bench-runtime-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    println!("\nbinary size (release, stripped)");
    let mut stripped = true;
    let mut sizes = Vec::new();
    for (i, (_, path)) in BINARIES.iter().enumerate() {
        let copy = dir.join(i.to_string());
        std::fs::copy(path, &copy).expect("the binary is copied");
        let status = std::process::Command::new("strip").arg(&copy).status();
        stripped &= matches!(status, Ok(s) if s.success());
        sizes.push(std::fs::metadata(&copy).map_or(0, |m| m.len()) as f64 / 1e6);
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !stripped {
        println!("(`strip` is not available: sizes are of the unstripped binaries)");
    }
    for (row, ((label, _), size)) in BINARIES.iter().zip(&sizes).enumerate() {
        println!("{label:<26} {size:>6.2} MB{}", ratio(row, sizes[0], *size));
    }
}
