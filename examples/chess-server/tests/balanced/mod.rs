//! nginx round-robin in front of two `chess-server --http ADDR --stateless` instances
//! (`deploy/nginx.conf` as shipped, its ports replaced by free ones), for the
//! load-balancer test of each official SDK: the TypeScript client in `e2e.rs`, the
//! Python client in `python_sdk.rs`. The including test declares the TypeScript
//! harness (`tests/e2e/harness.rs`) as `mod harness`.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::harness::{self, HttpServerProcess};

/// The two instances and nginx; stopped on drop (nginx first, with SIGTERM so that
/// its master stops its worker too, then the instances).
pub struct Balanced {
    /// The MCP endpoint of nginx (`http://127.0.0.1:PORT/mcp`).
    pub url: String,
    proxy: Child,
    dir: std::path::PathBuf,
    instances: Vec<HttpServerProcess>,
}

impl Balanced {
    /// Starts the instances (`--think-ms 20`, `RUST_LOG=mcpdesc=info` so that each logs
    /// the requests it serves) and nginx in front of them, and waits until nginx
    /// listens. `None` (with a notice naming `test`) without nginx; a panic instead
    /// under `MCPDESC_REQUIRE_TOOLS=1`.
    pub fn start(test: &str) -> Option<Self> {
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
                HttpServerProcess::start_with_env(
                    env!("CARGO_BIN_EXE_chess-server"),
                    &[
                        "--http",
                        &format!("127.0.0.1:{port}"),
                        "--stateless",
                        "--think-ms",
                        "20",
                    ],
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
            nginx_conf(listen, first_port, second_port),
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
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", listen)).is_err() {
            assert!(Instant::now() < deadline, "nginx did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(balanced)
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

/// `deploy/nginx.conf` as shipped, with its three ports replaced.
fn nginx_conf(listen: u16, first: u16, second: u16) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/nginx.conf");
    let conf = std::fs::read_to_string(path).unwrap();
    for port in ["127.0.0.1:8080;", "127.0.0.1:8081;", "127.0.0.1:8082;"] {
        assert!(conf.contains(port), "{port} in deploy/nginx.conf");
    }
    conf.replace("127.0.0.1:8080;", &format!("127.0.0.1:{listen};"))
        .replace("127.0.0.1:8081;", &format!("127.0.0.1:{first};"))
        .replace("127.0.0.1:8082;", &format!("127.0.0.1:{second};"))
}
