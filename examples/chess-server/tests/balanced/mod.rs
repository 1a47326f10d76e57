//! nginx round-robin in front of two `chess-server --http ADDR --stateless` instances
//! (`deploy/nginx.conf` as shipped, its ports replaced by free ones), for the
//! load-balancer test of each official SDK: the TypeScript client in `e2e.rs`, the
//! Python client in `python_sdk.rs`; or in front of two stateful instances sharing one
//! Redis (`--redis URL`, `deploy/nginx-stateful.conf`), in `shared_state.rs`. The
//! including test declares the TypeScript harness (`tests/e2e/harness.rs`) as
//! `mod harness`.

#![allow(dead_code)] // Each including test uses part of it.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::harness::{self, HttpServerProcess};
use super::redis::Redis;

/// The two instances and nginx; stopped on drop (nginx first, with SIGTERM so that
/// its master stops its worker too, then the instances).
pub struct Balanced {
    /// The MCP endpoint of nginx (`http://127.0.0.1:PORT/mcp`).
    pub url: String,
    proxy: Child,
    dir: std::path::PathBuf,
    instances: Vec<HttpServerProcess>,
    /// The stateful instances' Redis: dropped (stopped) after them.
    redis: Option<Redis>,
}

impl Balanced {
    /// Starts the instances (`--think-ms 20`, `RUST_LOG=mcpdesc=info` so that each logs
    /// the requests it serves) and nginx in front of them, and waits until nginx
    /// listens. `None` (with a notice naming `test`) without nginx; a panic instead
    /// under `MCPDESC_REQUIRE_TOOLS=1`.
    pub fn start(test: &str) -> Option<Self> {
        Self::start_with(test, "nginx.conf", &["--stateless"])
    }

    /// A `redis-server` of the test's own and two stateful instances keeping their
    /// sessions, tasks and stream events there (`--redis URL`, then `extra`, after the
    /// defaults so they override them), behind `deploy/nginx-stateful.conf`; otherwise
    /// as [`Balanced::start`]. `None` (with a notice) without `redis-server` or nginx.
    pub fn start_stateful(test: &str, extra: &[&str]) -> Option<Self> {
        let redis = Redis::for_test(test, harness::prereq::program)?;
        let mut mode = vec!["--redis", redis.url.as_str()];
        mode.extend_from_slice(extra);
        let mut balanced = Self::start_with(test, "nginx-stateful.conf", &mode)?;
        balanced.redis = Some(redis);
        Some(balanced)
    }

    /// The instances with `mode` (their extra arguments) behind `deploy/{conf}`.
    fn start_with(test: &str, conf: &str, mode: &[&str]) -> Option<Self> {
        let nginx = harness::prereq::program(
            test,
            &["nginx", "/usr/sbin/nginx"],
            &["-v"],
            "apt-get install nginx-light; CI: .ci/setup.d/20-nginx.sh",
        )?;
        let (first_port, second_port, listen) = (free_port(), free_port(), free_port());
        let instances: Vec<_> = [first_port, second_port]
            .iter()
            .map(|port| {
                let addr = format!("127.0.0.1:{port}");
                let mut args = vec!["--http", &addr, "--think-ms", "20"];
                args.extend_from_slice(mode);
                HttpServerProcess::start_with_env(
                    env!("CARGO_BIN_EXE_chess-server"),
                    &args,
                    &[("RUST_LOG", "mcpdesc=info")],
                )
            })
            .collect();
        // One folder per test: both SDKs' tests may run at once.
        let name: String = test
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let dir = std::env::temp_dir().join(format!("mcpdesc-nginx-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("nginx.conf"),
            nginx_conf(conf, listen, first_port, second_port),
        )
        .unwrap();
        let proxy = Command::new(&nginx)
            .arg("-p")
            .arg(&dir)
            .args(["-c", "nginx.conf", "-e", "stderr"])
            .stdin(Stdio::null())
            // Not the test's own pipes: nothing may hold them open after the test.
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let balanced = Balanced {
            url: format!("http://127.0.0.1:{listen}/mcp"),
            proxy,
            dir,
            instances,
            redis: None,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", listen)).is_err() {
            assert!(Instant::now() < deadline, "nginx did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(balanced)
    }

    /// The stateful instances' Redis ([`Balanced::start_stateful`]).
    pub fn redis(&self) -> &Redis {
        self.redis.as_ref().expect("a stateful pair")
    }

    /// Kills instance `index` (0 or 1) with SIGKILL and waits for its end.
    pub fn kill(&mut self, index: usize) {
        let instance = &mut self.instances[index];
        let status = Command::new("kill")
            .args(["-KILL", &instance.pid().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        assert!(instance.wait_exit(Duration::from_secs(10)).is_some());
    }

    /// How many MCP requests instance `index` logged.
    pub fn served(&self, index: usize) -> usize {
        self.instances[index]
            .stderr()
            .matches("mcp request")
            .count()
    }

    /// Panics unless each instance logged at least one MCP request it served.
    pub fn assert_each_instance_served(&self) {
        for instance in &self.instances {
            let served = instance.stderr().matches("mcp request").count();
            assert!(
                served > 0,
                "an instance served nothing: {}",
                instance.stderr()
            );
        }
    }
}

impl Drop for Balanced {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.proxy.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(Some(_)) = self.proxy.try_wait() {
                break;
            }
            if Instant::now() > deadline {
                let _ = self.proxy.kill();
                let _ = self.proxy.wait();
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A free loopback port (bound and released: a small race, fine for a test).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `deploy/{name}` as shipped, with its three ports replaced.
fn nginx_conf(name: &str, listen: u16, first: u16, second: u16) -> String {
    let path = format!("{}/deploy/{name}", env!("CARGO_MANIFEST_DIR"));
    let conf = std::fs::read_to_string(path).unwrap();
    for port in ["127.0.0.1:8080;", "127.0.0.1:8081;", "127.0.0.1:8082;"] {
        assert!(conf.contains(port), "{port} in deploy/{name}");
    }
    conf.replace("127.0.0.1:8080;", &format!("127.0.0.1:{listen};"))
        .replace("127.0.0.1:8081;", &format!("127.0.0.1:{first};"))
        .replace("127.0.0.1:8082;", &format!("127.0.0.1:{second};"))
}
