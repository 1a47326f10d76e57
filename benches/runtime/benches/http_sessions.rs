//! The memory of idle streamable HTTP sessions, live and dormant, what a call on a
//! dormant session costs, and what an `initialize` flood leaves behind once its
//! sessions have expired.
//!
//! `cargo bench -p mcpdesc-bench-runtime --bench http_sessions` starts the generated
//! greeter behind `mcpdesc::http::HttpServer` (stateful) in this process, on a
//! thread of its own, and:
//!
//! 1. with hibernation off (`hibernate_after(None)`), opens [`SESSIONS`] sessions
//!    (`initialize` + `notifications/initialized`, over [`CONNECTIONS`] keep-alive
//!    connections) and leaves them idle; prints the heap bytes still allocated (this
//!    binary's counting allocator: exact, whatever the allocator keeps) and the
//!    resident set (`VmRSS`) before and after, per session: a live idle session;
//! 2. sends [`FLOOD`] `initialize` requests without anything after them (the
//!    issue's flood: no credentials needed, 8 connections), prints what was served
//!    and refused and the peak resident set, waits until every flooded session has
//!    been closed by the handshake timeout (the server's own session count), and
//!    prints the heap and the resident set then, and after glibc's `malloc_trim`;
//! 3. on a second server with the default settings (sessions hibernate after 5 s),
//!    opens [`SESSIONS`] sessions, waits until all are dormant and prints the heap
//!    and resident set per dormant session; then makes one `tools/call` on each of
//!    [`CALLS`] dormant sessions (each restores its session) and one more on each of
//!    them (live now), one call at a time, and prints the server thread's CPU time
//!    per call of each pass.
//!
//! The heap figure counts the client's side too: it keeps one session id (a
//! 36-byte string) per session, nothing else.
//! `MCPDESC_BENCH_QUICK=1` opens fewer sessions and floods less.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures::future::join_all;
use mcpdesc_bench_runtime::http::{self, HttpClient, HttpSide};

/// Counts the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` with the same arguments; the counter
// does not touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Idle sessions opened for the per-session figure.
const SESSIONS: usize = 4_000;
/// `initialize` requests of the flood.
const FLOOD: usize = 40_000;
/// Connections each phase uses.
const CONNECTIONS: usize = 8;
/// Dormant sessions called (then called again, live) for the CPU figures.
const CALLS: usize = 1_000;

const STATEFUL: HttpSide = HttpSide::Generated {
    stateless: false,
    secured: false,
};

fn main() {
    let quick = std::env::var_os("MCPDESC_BENCH_QUICK").is_some();
    let (sessions, flood, calls) = if quick {
        (400, 4_000, 200)
    } else {
        (SESSIONS, FLOOD, CALLS)
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let server = http::start_with(STATEFUL, |server| server.hibernate_after(None));
    runtime.block_on(async {
        // Warm up: the allocator's arenas, the router's caches, a few sessions.
        let warm = open_sessions(server.addr(), 64).await;
        settle().await;
        let before = Memory::now();
        let ids = open_sessions(server.addr(), sessions).await;
        settle().await;
        let after = Memory::now();
        let open = server.open_sessions().await.unwrap_or(0);
        println!(
            "live idle stateful sessions on mcpdesc HttpServer (generated greeter, hibernation off), {} cores",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        println!(
            "{sessions} sessions opened ({open} open on the server, {} before): heap {:.1} -> {:.1} MB, \
             resident {:.1} -> {:.1} MB",
            warm.len(),
            mb(before.heap),
            mb(after.heap),
            mb(before.resident),
            mb(after.resident)
        );
        println!(
            "per idle session: {:.1} KB of heap, {:.1} KB resident",
            (after.heap as f64 - before.heap as f64) / sessions as f64 / 1024.0,
            (after.resident as f64 - before.resident as f64) / sessions as f64 / 1024.0
        );
        drop(ids);
        drop(warm);

        println!("\nflood: {flood} `initialize` requests, nothing after them, {CONNECTIONS} connections");
        let before = Memory::now();
        let started = Instant::now();
        let (served, refused) = flood_with(server.addr(), flood).await;
        let peak = Memory::now();
        println!(
            "{served} served, {refused} refused (503) in {:.1} s; resident {:.1} -> {:.1} MB (peak of the process {:.1} MB), heap {:.1} MB",
            started.elapsed().as_secs_f64(),
            mb(before.resident),
            mb(peak.resident),
            mb(peak_resident()),
            mb(peak.heap)
        );
        // Every session opened so far is closed by the handshake timeout (10 s)
        // or, for the idle ones of part 1, still open: wait for the flooded ones.
        let waited = Instant::now();
        let mut open = server.open_sessions().await.unwrap_or(0);
        while open > sessions + 64 && waited.elapsed() < Duration::from_secs(60) {
            tokio::time::sleep(Duration::from_millis(500)).await;
            open = server.open_sessions().await.unwrap_or(0);
        }
        settle().await;
        let expired = Memory::now();
        println!(
            "after the flooded sessions expired ({open} open, the idle ones of above): heap {:.1} MB, resident {:.1} MB",
            mb(expired.heap),
            mb(expired.resident)
        );
        trim();
        let trimmed = Memory::now();
        println!(
            "after malloc_trim(0): heap {:.1} MB, resident {:.1} MB",
            mb(trimmed.heap),
            mb(trimmed.resident)
        );
    });
    drop(server);
    runtime.block_on(dormant(sessions, calls));
}

/// Part 3: dormant sessions on a server with the default settings.
async fn dormant(sessions: usize, calls: usize) {
    let server = http::start(STATEFUL);
    let warm = open_sessions(server.addr(), 64).await;
    until_all_dormant(&server).await;
    trim();
    let before = Memory::now();
    let ids = open_sessions(server.addr(), sessions).await;
    let opened = Instant::now();
    until_all_dormant(&server).await;
    let waited = opened.elapsed();
    // Each session's handshake timer (a task sleeping `initialize_timeout`, 10 s,
    // whether or not the handshake completed) ends too: what stays is dormant state.
    tokio::time::sleep(
        (mcpdesc::http::DEFAULT_INITIALIZE_TIMEOUT + Duration::from_secs(1))
            .saturating_sub(opened.elapsed()),
    )
    .await;
    trim();
    let after = Memory::now();
    println!(
        "\ndormant sessions (defaults: hibernate after 5 s of idleness): {sessions} opened, \
         all dormant {:.1} s later ({} open, {} live); 11 s later, heap {:.1} -> {:.1} MB, resident {:.1} -> {:.1} MB (after malloc_trim)",
        waited.as_secs_f64(),
        server.open_sessions().await.unwrap_or(0),
        server.live_sessions().await.unwrap_or(0),
        mb(before.heap),
        mb(after.heap),
        mb(before.resident),
        mb(after.resident)
    );
    println!(
        "per dormant session: {:.2} KB of heap, {:.1} KB resident",
        (after.heap as f64 - before.heap as f64) / sessions as f64 / 1024.0,
        (after.resident as f64 - before.resident as f64) / sessions as f64 / 1024.0
    );

    // One call at a time on one connection, each in a session of its own.
    let mut client = HttpClient::open(server.addr(), false).await;
    let chosen = &ids[..calls.min(ids.len())];
    let restoring = pass(
        &server,
        &mut client,
        chosen,
        "a call on a dormant session (restores it)",
    )
    .await;
    let live = pass(
        &server,
        &mut client,
        chosen,
        "a call on a live session (the same ones, again)",
    )
    .await;
    println!(
        "a restore costs {:.1} µs of server CPU ({:.2}x a live call)",
        (restoring.as_secs_f64() - live.as_secs_f64()) * 1e6 / chosen.len() as f64,
        restoring.as_secs_f64() / live.as_secs_f64()
    );
    drop(warm);
}

/// One `tools/call` in each session of `ids`, one at a time; the server's CPU time.
async fn pass(
    server: &http::RunningServer,
    client: &mut HttpClient,
    ids: &[String],
    label: &str,
) -> Duration {
    let cpu = server.cpu_time();
    let started = Instant::now();
    for (i, id) in ids.iter().enumerate() {
        client.use_session(id.clone());
        client.call(i).await;
    }
    let cpu = server.cpu_time() - cpu;
    let wall = started.elapsed();
    println!(
        "{label}: {} calls, server CPU {:.1} µs per call (wall {:.1} µs per call), {} live after",
        ids.len(),
        cpu.as_secs_f64() * 1e6 / ids.len() as f64,
        wall.as_secs_f64() * 1e6 / ids.len() as f64,
        server.live_sessions().await.unwrap_or(0)
    );
    cpu
}

/// Waits until every session of `server` is dormant (at most 60 s).
async fn until_all_dormant(server: &http::RunningServer) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.live_sessions().await.unwrap_or(0) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Opens `count` sessions over [`CONNECTIONS`] connections; their ids.
async fn open_sessions(addr: std::net::SocketAddr, count: usize) -> Vec<String> {
    let per_connection = count.div_ceil(CONNECTIONS);
    let batches = join_all((0..CONNECTIONS).map(|c| async move {
        let mut client = HttpClient::open(addr, false).await;
        let mut ids = Vec::new();
        for _ in 0..per_connection.min(count.saturating_sub(c * per_connection)) {
            ids.push(client.initialize().await.expect("a session id"));
            client.forget_session();
        }
        ids
    }))
    .await;
    batches.into_iter().flatten().collect()
}

/// `count` `initialize` requests over [`CONNECTIONS`] connections; how many were
/// served and how many refused.
async fn flood_with(addr: std::net::SocketAddr, count: usize) -> (usize, usize) {
    let per_connection = count / CONNECTIONS;
    let counts = join_all((0..CONNECTIONS).map(|_| async move {
        let mut client = HttpClient::open(addr, false).await;
        let (mut served, mut refused) = (0, 0);
        for _ in 0..per_connection {
            let reply = client.initialize_only().await;
            match reply.status.as_u16() {
                200 => served += 1,
                503 => refused += 1,
                status => panic!("initialize got {status}"),
            }
        }
        (served, refused)
    }))
    .await;
    counts
        .into_iter()
        .fold((0, 0), |(s, r), (s2, r2)| (s + s2, r + r2))
}

/// Lets the server's tasks finish what the last answers started.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(500)).await;
}

/// The heap in use and the resident set, in bytes.
struct Memory {
    heap: usize,
    resident: usize,
}

impl Memory {
    fn now() -> Memory {
        Memory {
            heap: LIVE.load(Ordering::Relaxed),
            resident: status_kb("VmRSS:") * 1024,
        }
    }
}

fn peak_resident() -> usize {
    status_kb("VmHWM:") * 1024
}

/// A `kB` field of `/proc/self/status` (0 where there is none).
fn status_kb(field: &str) -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status.lines().find_map(|line| {
                line.strip_prefix(field)
                    .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            })
        })
        .unwrap_or(0)
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Returns glibc's free pages to the system (nothing elsewhere).
fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only releases memory the allocator holds free.
    unsafe {
        libc::malloc_trim(0);
    }
}
