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

use std::path::{Path, PathBuf};
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

/// The two stdio binaries, built by Cargo for this benchmark (same profile).
fn binary(side: Side) -> PathBuf {
    PathBuf::from(match side {
        Side::Generated => env!("CARGO_BIN_EXE_greeter-generated"),
        // The stdio binary is the rmcp-documented form; keeping the router in a field
        // changes neither its size nor its memory.
        Side::Handwritten | Side::HandwrittenStored => {
            env!("CARGO_BIN_EXE_greeter-handwritten")
        }
    })
}

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
    let mut peaks = [0.0; 2];
    for side in Side::BOTH {
        let mut peak = Vec::new();
        let mut current = Vec::new();
        for _ in 0..plan.memory_runs {
            let (hwm, rss) = memory_of(side).await;
            peak.push(hwm);
            current.push(rss);
        }
        peaks[side as usize] = median(&mut peak);
        println!(
            "{:<13} peak {:>6.1} MB, now {:>6.1} MB",
            side.label(),
            peaks[side as usize],
            median(&mut current)
        );
    }
    println!(
        "ratio generated/hand-written (peak): {:.2}x",
        peaks[0] / peaks[1]
    );
}

/// (`VmHWM`, `VmRSS`) in MB of one run of `side`'s binary.
async fn memory_of(side: Side) -> (f64, f64) {
    let mut child = tokio::process::Command::new(binary(side))
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
    let measured = (field("VmHWM:"), field("VmRSS:"));
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
    let mut bytes = [0u64; 2];
    let mut stripped = true;
    for side in Side::BOTH {
        let copy = dir.join(side.label());
        std::fs::copy(binary(side), &copy).expect("the binary is copied");
        let status = std::process::Command::new("strip").arg(&copy).status();
        stripped &= matches!(status, Ok(s) if s.success());
        bytes[side as usize] = std::fs::metadata(&copy).map_or(0, |m| m.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
    if !stripped {
        println!("(`strip` is not available: sizes are of the unstripped binaries)");
    }
    for side in Side::BOTH {
        println!(
            "{:<13} {:>6.2} MB",
            side.label(),
            bytes[side as usize] as f64 / 1e6
        );
    }
    println!(
        "ratio generated/hand-written: {:.2}x",
        bytes[0] as f64 / bytes[1] as f64
    );
}
