//! The HTTP benchmark: the greeter tool over streamable HTTP, served by the router
//! mcpdesc generates behind `mcpdesc::http::HttpServer` (stateful and stateless,
//! with and without the security gate) and by the hand-written rmcp `#[tool]` server
//! behind rmcp's `StreamableHttpService` nested in axum (stateful and stateless),
//! all in one run with the same raw HTTP/1.1 client.
//!
//! `cargo bench -p mcpdesc-bench-runtime --bench http` prints, per side and mode,
//! the server's CPU time per call (the CPU clock of the server's own thread: each
//! server runs a current-thread tokio runtime on a thread of its own, so the figure
//! leaves out the client and holds on a loaded machine), the calls per second, and
//! the ratio of CPU per call to the hand-written server of the same mode. The modes:
//! one connection making one call at a time (sequential), and [`CONNECTIONS`]
//! connections doing so at once (concurrent). The sides take turns round by round;
//! the median round counts.
//!
//! `MCPDESC_BENCH_QUICK=1` runs a few short rounds. `MCPDESC_BENCH_PROFILE=<side>`
//! (`stateful`, `stateless`, `stateful-gate`, `stateless-gate`, `rmcp-stateful`,
//! `rmcp-stateless`) only makes calls to that side for [`PROFILE_CALLS`] calls and
//! prints nothing else: run it under `valgrind --tool=callgrind --separate-threads=yes`
//! and read the server thread's file.

use std::time::{Duration, Instant};

use futures::future::join_all;
use mcpdesc_bench_runtime::http::{self, HttpClient, HttpSide, RunningServer};

/// Connections of the concurrent mode.
const CONNECTIONS: usize = 8;
/// Calls of a profiling run.
const PROFILE_CALLS: usize = 3_000;

/// Every side, in table order: the hand-written server first in each mode, the
/// ratios' reference.
const SIDES: [HttpSide; 6] = [
    HttpSide::Handwritten { stateless: false },
    HttpSide::Generated {
        stateless: false,
        secured: false,
    },
    HttpSide::Generated {
        stateless: false,
        secured: true,
    },
    HttpSide::Handwritten { stateless: true },
    HttpSide::Generated {
        stateless: true,
        secured: false,
    },
    HttpSide::Generated {
        stateless: true,
        secured: true,
    },
];

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Some(side) = std::env::var_os("MCPDESC_BENCH_PROFILE") {
        let side = match side.to_str() {
            Some("stateful") => SIDES[1],
            Some("stateful-gate") => SIDES[2],
            Some("stateless") => SIDES[4],
            Some("stateless-gate") => SIDES[5],
            Some("rmcp-stateful") => SIDES[0],
            Some("rmcp-stateless") => SIDES[3],
            _ => panic!(
                "MCPDESC_BENCH_PROFILE is `stateful`, `stateless`, `stateful-gate`, \
                 `stateless-gate`, `rmcp-stateful` or `rmcp-stateless`"
            ),
        };
        let server = http::start(side);
        runtime.block_on(async {
            let mut client = HttpClient::connect(server.addr(), side).await;
            for i in 0..PROFILE_CALLS {
                std::hint::black_box(client.call(i).await);
            }
        });
        return;
    }
    let quick = std::env::var_os("MCPDESC_BENCH_QUICK").is_some();
    let (rounds, sequential_calls, concurrent_calls) = if quick {
        (2, 200, 400)
    } else {
        // Sequential rounds of 300 calls (about 30 ms of server CPU) moved by 50%
        // from run to run on a loaded machine; 1,500 calls and 7 rounds hold better.
        (7, 1_500, 3_000)
    };
    println!(
        "greeter tool over streamable HTTP: mcpdesc HttpServer vs the hand-written rmcp \
         #[tool] server in axum ({} cores, load average {})",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        load_average()
    );
    let servers: Vec<RunningServer> = SIDES.iter().map(|side| http::start(*side)).collect();
    let modes = [
        ("sequential", sequential_calls, 1),
        ("concurrent", concurrent_calls, CONNECTIONS),
    ];
    println!(
        "\n{:<11} {:<10} {:<32} {:>12} {:>15} {:>9} {:>10}",
        "mode", "sessions", "server", "CPU per call", "rounds min-max", "calls/s", "CPU ratio"
    );
    for (mode, calls, connections) in modes {
        let rows = runtime.block_on(measure(&servers, calls, connections, rounds));
        for (side, row) in SIDES.iter().zip(&rows) {
            let reference = if side.stateless() { rows[3] } else { rows[0] };
            let ratio = match side {
                HttpSide::Handwritten { .. } => String::new(),
                HttpSide::Generated { .. } => format!("{:.2}x", row.cpu / reference.cpu),
            };
            println!(
                "{:<11} {:<10} {:<32} {:>9.1} µs {:>15} {:>9.0} {:>10}",
                mode,
                if side.stateless() {
                    "stateless"
                } else {
                    "stateful"
                },
                side.label(),
                row.cpu * 1e6,
                format!("{:.1}-{:.1}", row.cpu_min * 1e6, row.cpu_max * 1e6),
                row.calls_per_second,
                ratio
            );
        }
    }
    println!(
        "(CPU per call: the server thread's CPU time / calls, median of {rounds} rounds, \
         and the lowest and highest round; ratio: median / the hand-written server's \
         median of the same mode)"
    );
}

/// The medians of one mode, per side.
#[derive(Debug, Clone, Copy)]
struct Row {
    /// Server CPU seconds per call.
    cpu: f64,
    /// The lowest and highest round's server CPU seconds per call.
    cpu_min: f64,
    cpu_max: f64,
    calls_per_second: f64,
}

/// `rounds` rounds of `calls` calls over `connections` connections to each server.
async fn measure(
    servers: &[RunningServer],
    calls: usize,
    connections: usize,
    rounds: usize,
) -> Vec<Row> {
    let mut clients = Vec::new();
    for (server, side) in servers.iter().zip(SIDES) {
        let mut side_clients = Vec::new();
        for _ in 0..connections {
            side_clients.push(HttpClient::connect(server.addr(), side).await);
        }
        clients.push(side_clients);
    }
    // Warm every side up (allocator, caches).
    for side_clients in &mut clients {
        run(side_clients, calls / 10).await;
    }
    let mut cpu = vec![Vec::new(); servers.len()];
    let mut rate = vec![Vec::new(); servers.len()];
    for round in 0..rounds {
        // Rotate which side goes first, so drift in machine load hits all.
        for k in 0..servers.len() {
            let side = (round + k) % servers.len();
            let before = servers[side].cpu_time();
            let started = Instant::now();
            run(&mut clients[side], calls).await;
            let elapsed = started.elapsed();
            let used = servers[side].cpu_time() - before;
            cpu[side].push(used.as_secs_f64() / calls as f64);
            rate[side].push(calls as f64 / elapsed.as_secs_f64());
        }
    }
    cpu.into_iter()
        .zip(rate)
        .map(|(mut cpu, mut rate)| Row {
            cpu: median(&mut cpu),
            cpu_min: cpu[0],
            cpu_max: cpu[cpu.len() - 1],
            calls_per_second: median(&mut rate),
        })
        .collect()
}

/// `calls` calls spread over the connections, each making one call at a time.
async fn run(clients: &mut [HttpClient], calls: usize) -> Duration {
    let started = Instant::now();
    let per_client = calls / clients.len();
    join_all(clients.iter_mut().map(|client| async move {
        for i in 0..per_client {
            std::hint::black_box(client.call(i).await);
        }
    }))
    .await;
    started.elapsed()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// The 1-minute load average (`/proc/loadavg`), `?` where unknown.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}
