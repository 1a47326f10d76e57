//! The shared-state benchmark: the greeter tool over streamable HTTP on a live
//! stateful session, served by `HttpServer` with its sessions in memory (the
//! default) and in a real Redis (`HttpServer::shared_state`, `RedisState`), and the
//! cost of a restore: the first request of a session on an instance that has not
//! seen it (the record read from Redis, the handshake replayed).
//!
//! `cargo bench -p mcpdesc-bench-runtime --bench http_shared` starts its own
//! `redis-server` on a free port (it prints a notice and does nothing without one)
//! and prints the server thread's CPU per call (the median of the rounds; the
//! Redis client runs on that thread too, so its work counts; Redis's own does not)
//! and the ratio to the in-memory server; then the server CPU of a restore against a
//! call on a live session of the same instance. `MCPDESC_BENCH_QUICK=1` runs a few
//! short rounds.
//!
//! The thread-CPU figures move with the machine's load, so the ratio is also counted
//! in instructions, which do not: `MCPDESC_BENCH_PROFILE=memory` (or `redis`, or
//! `redis-resumable`: the events of SSE streams kept in Redis too) only
//! makes `MCPDESC_BENCH_PROFILE_CALLS` (default [`PROFILE_CALLS`]) sequential calls on
//! one live session of that side and prints nothing else; run it under
//! `valgrind --tool=callgrind --separate-threads=yes` with two call counts and divide
//! the difference of the server thread's totals by the difference of the counts
//! (startup and the handshake cancel out; `docs/benchmarks.md` has the commands).

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mcpdesc::state::RedisState;
use mcpdesc_bench_runtime::http::{self, HttpClient, HttpSide, RunningServer};

const STATEFUL: HttpSide = HttpSide::Generated {
    stateless: false,
    secured: false,
};

/// Calls of a profiling run, unless `MCPDESC_BENCH_PROFILE_CALLS` says otherwise.
const PROFILE_CALLS: usize = 3_000;

/// A `redis-server` of the benchmark's own; killed on drop.
struct Redis {
    url: String,
    child: Child,
}

impl Redis {
    fn start() -> Option<Redis> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Redis {
            url: format!("redis://127.0.0.1:{port}/"),
            child,
        })
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A stateful server keeping its sessions in `url`.
fn shared(url: &str) -> RunningServer {
    shared_with(url, false)
}

/// A stateful server keeping its sessions in `url`, and the events of its SSE
/// streams too when `resumable` (`RedisState::with_resumable_streams`).
fn shared_with(url: &str, resumable: bool) -> RunningServer {
    let url = url.to_owned();
    http::start_with(STATEFUL, move |server| {
        let mut state = RedisState::open(&url).expect("a Redis URL");
        if resumable {
            state = state.with_resumable_streams(Duration::from_secs(300));
        }
        server.shared_state(Arc::new(state))
    })
}

fn main() {
    let Some(redis) = Redis::start() else {
        println!(
            "http_shared: no redis-server on PATH (apt-get install redis-server); nothing measured"
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    if let Some(side) = std::env::var_os("MCPDESC_BENCH_PROFILE") {
        let server = match side.to_str() {
            Some("memory") => http::start(STATEFUL),
            Some("redis") => shared(&redis.url),
            Some("redis-resumable") => shared_with(&redis.url, true),
            _ => panic!("MCPDESC_BENCH_PROFILE is `memory`, `redis` or `redis-resumable`"),
        };
        let calls = std::env::var("MCPDESC_BENCH_PROFILE_CALLS")
            .ok()
            .map(|n| n.parse().expect("MCPDESC_BENCH_PROFILE_CALLS is a number"))
            .unwrap_or(PROFILE_CALLS);
        runtime.block_on(async {
            let mut client = HttpClient::connect(server.addr(), STATEFUL).await;
            for i in 0..calls {
                std::hint::black_box(client.call(i).await);
            }
        });
        return;
    }
    let quick = std::env::var_os("MCPDESC_BENCH_QUICK").is_some();
    let (rounds, calls, restores) = if quick { (2, 200, 50) } else { (7, 1_500, 300) };
    println!(
        "greeter tool on a live stateful session: sessions in memory vs in Redis ({} cores, \
         load average {})",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|s| s.split_whitespace().next().map(str::to_owned))
            .unwrap_or_else(|| "?".into())
    );
    let servers = [http::start(STATEFUL), shared(&redis.url)];
    let labels = [
        "HttpServer, sessions in memory",
        "HttpServer, sessions in Redis",
    ];
    let medians = runtime.block_on(async {
        let mut clients = Vec::new();
        for server in &servers {
            clients.push(HttpClient::connect(server.addr(), STATEFUL).await);
        }
        for client in &mut clients {
            for i in 0..calls / 10 {
                std::hint::black_box(client.call(i).await);
            }
        }
        let mut cpu = vec![Vec::new(); servers.len()];
        for round in 0..rounds {
            for k in 0..servers.len() {
                let side = (round + k) % servers.len();
                let before = servers[side].cpu_time();
                for i in 0..calls {
                    std::hint::black_box(clients[side].call(i).await);
                }
                let used = servers[side].cpu_time() - before;
                cpu[side].push(used.as_secs_f64() / calls as f64);
            }
        }
        cpu.into_iter()
            .map(|mut v| median(&mut v))
            .collect::<Vec<_>>()
    });
    println!(
        "\n{:<32} {:>12} {:>10}",
        "server", "CPU per call", "CPU ratio"
    );
    for (label, cpu) in labels.iter().zip(&medians) {
        println!(
            "{:<32} {:>9.1} µs {:>9.2}x",
            label,
            cpu * 1e6,
            cpu / medians[0]
        );
    }

    // Restores: sessions opened on A, each first used on B.
    let other = shared(&redis.url);
    let (restore, live) = runtime.block_on(async {
        let mut opener = HttpClient::open(servers[1].addr(), false).await;
        let mut ids = Vec::new();
        for _ in 0..restores {
            opener.forget_session();
            ids.push(opener.initialize().await.expect("a session"));
        }
        let mut client = HttpClient::open(other.addr(), false).await;
        let mut first = Duration::ZERO;
        let mut second = Duration::ZERO;
        for (i, id) in ids.into_iter().enumerate() {
            client.use_session(id);
            let before = other.cpu_time();
            std::hint::black_box(client.call(i).await);
            let restored = other.cpu_time();
            std::hint::black_box(client.call(i).await);
            first += restored - before;
            second += other.cpu_time() - restored;
        }
        (
            first.as_secs_f64() / restores as f64,
            second.as_secs_f64() / restores as f64,
        )
    });
    println!(
        "\nrestore on another instance (first call there): {:.1} µs server CPU; \
         the next call on the same session: {:.1} µs ({:.1}x)",
        restore * 1e6,
        live * 1e6,
        restore / live
    );
    println!(
        "(CPU per call: the server thread's CPU time / calls, median of {rounds} rounds of \
         {calls} sequential calls on one session; restores: the mean of {restores})"
    );
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
