//! A `redis-server` of the test's own, on a free loopback port, without persistence;
//! stopped on drop. The including test finds the program with `tests/prereq.rs`
//! (`prereq::program(test, CANDIDATES, &["--version"], HOW)`: a notice and a skip
//! without it, a panic under `MCPDESC_REQUIRE_TOOLS=1`; `.ci/setup.d/35-redis.sh`
//! installs it).

#![allow(dead_code)] // Each including test uses part of it.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where `redis-server` may be.
pub const CANDIDATES: &[&str] = &["redis-server", "/usr/bin/redis-server"];

/// How to install it.
pub const HOW: &str = "apt-get install redis-server; CI: .ci/setup.d/35-redis.sh";

/// A running `redis-server`.
pub struct Redis {
    /// `redis://127.0.0.1:PORT/`.
    pub url: String,
    pub port: u16,
    program: PathBuf,
    child: Child,
}

/// How the including test finds a program: its `prereq::program` (a notice and `None`
/// without it, a panic under `MCPDESC_REQUIRE_TOOLS=1`).
pub type Find = fn(&str, &[&str], &[&str], &str) -> Option<PathBuf>;

impl Redis {
    /// A `redis-server` of `test`'s own, found with `find`; `None` (with `find`'s
    /// notice) without the program.
    pub fn for_test(test: &str, find: Find) -> Option<Redis> {
        let program = find(test, CANDIDATES, &["--version"], HOW)?;
        Some(Redis::start(program))
    }

    /// Starts `program` and waits until it answers `PING`.
    pub fn start(program: PathBuf) -> Redis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = spawn(&program, port);
        let redis = Redis {
            url: format!("redis://127.0.0.1:{port}/"),
            port,
            program,
            child,
        };
        redis.wait_ready();
        redis
    }

    /// Kills the server (SIGKILL: its data is lost), and starts a fresh one on the
    /// same port when `again`.
    pub fn restart(&mut self, again: bool) {
        self.send("CONT");
        let _ = self.child.kill();
        let _ = self.child.wait();
        if again {
            self.child = spawn(&self.program, self.port);
            self.wait_ready();
        }
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.pings() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether it answers `PING` (raw RESP on a fresh connection).
    fn pings(&self) -> bool {
        use std::io::{Read, Write};
        let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", self.port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let mut answer = [0u8; 7];
        stream.write_all(b"PING\r\n").is_ok()
            && stream.read_exact(&mut answer).is_ok()
            && &answer == b"+PONG\r\n"
    }

    /// How many connections are subscribed to `channel` (`PUBSUB NUMSUB`, raw
    /// RESP).
    pub fn subscribers(&self, channel: &str) -> usize {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(2)))
            .unwrap();
        write!(
            stream,
            "*3\r\n$6\r\nPUBSUB\r\n$6\r\nNUMSUB\r\n${}\r\n{channel}\r\n",
            channel.len()
        )
        .unwrap();
        // `*2 $len channel :count`: the count is the last line.
        let mut answer = Vec::new();
        let mut buffer = [0u8; 256];
        while !(answer.ends_with(b"\r\n") && answer.contains(&b':')) {
            let read = stream.read(&mut buffer).unwrap();
            assert!(read > 0, "redis closed the connection");
            answer.extend_from_slice(&buffer[..read]);
        }
        let text = String::from_utf8(answer).unwrap();
        text.rsplit(':').next().unwrap().trim().parse().unwrap()
    }

    /// Sends `signal` (`STOP`, `CONT`) to the server: `STOP` pauses it (connections
    /// stay open, nothing answers), `CONT` resumes it.
    pub fn signal(&self, signal: &str) {
        assert!(self.send(signal), "kill -{signal}");
    }

    /// Sends `signal`; whether it reached the server.
    fn send(&self, signal: &str) -> bool {
        Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.send("CONT");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `redis-server` on `port`, without persistence.
fn spawn(program: &Path, port: u16) -> Child {
    Command::new(program)
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}
