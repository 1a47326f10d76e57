//! Just enough of the Chrome DevTools Protocol to drive a page's controls in headless
//! Chromium: the page's WebSocket (RFC 6455 client frames over a loopback
//! `TcpStream`), `Runtime.evaluate`, and the console and exception events seen on the
//! way. No crate: the protocol needed is a few JSON messages.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A headless Chromium showing one page, driven over its DevTools WebSocket.
pub struct Browser {
    /// Ended when the browser is dropped (also when a step panics).
    _child: Kill,
    socket: TcpStream,
    next_id: u64,
    /// Console calls and uncaught exceptions reported since `Runtime.enable`.
    pub console: Vec<String>,
}

impl Browser {
    /// Starts `chromium` on `url` with a fresh profile in `profile`, and connects to the
    /// page's DevTools socket.
    pub fn open(chromium: &Path, profile: &Path, url: &str) -> Browser {
        let child = Command::new(chromium)
            .args(super::CHROMIUM_FLAGS)
            .args([
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromium starts");
        let mut child = Kill(child);
        let port = port(&mut child.0, profile);
        let path = page_socket(port, url);
        let socket = handshake(port, &path);
        let mut browser = Browser {
            _child: child,
            socket,
            next_id: 0,
            console: Vec::new(),
        };
        browser.call("Runtime.enable", json!({}));
        browser
    }

    /// Sends a command and returns its `result`, noting the events read meanwhile.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        send(&mut self.socket, message.as_bytes());
        loop {
            let reply: Value = serde_json::from_slice(&receive(&mut self.socket)).unwrap();
            if reply.get("id").and_then(Value::as_u64) == Some(id) {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
            match reply.get("method").and_then(Value::as_str) {
                Some("Runtime.consoleAPICalled") | Some("Runtime.exceptionThrown") => {
                    self.console.push(reply["params"].to_string());
                }
                _ => {}
            }
        }
    }

    /// Evaluates a JavaScript expression in the page; its value (as JSON).
    pub fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page (60 s at most).
    pub fn wait_for(&mut self, expression: &str) {
        let started = Instant::now();
        while self.eval(expression) != Value::Bool(true) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{expression} never became true"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A child process killed (and reaped) on drop.
struct Kill(Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The DevTools port Chromium wrote into the profile (it picks a free one).
fn port(child: &mut Child, profile: &Path) -> u16 {
    let file = profile.join("DevToolsActivePort");
    let started = Instant::now();
    loop {
        if let Some(port) = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| t.lines().next()?.trim().parse().ok())
        {
            return port;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("chromium exited before listening: {status}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "chromium did not open its DevTools port within 60 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The WebSocket path of the page showing `url`, from `GET /json/list`.
fn page_socket(port: u16, url: &str) -> String {
    let started = Instant::now();
    loop {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("DevTools port");
        write!(
            stream,
            "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        // The DevTools server keeps the connection open: read exactly Content-Length.
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut reader = BufReader::new(stream);
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap();
                }
            }
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body).unwrap();
        let body = String::from_utf8_lossy(&body);
        let targets: Vec<Value> = serde_json::from_str(&body).unwrap_or_default();
        let page = targets
            .iter()
            .find(|t| t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(url)));
        if let Some(ws) = page.and_then(|t| t["webSocketDebuggerUrl"].as_str()) {
            let path = ws.splitn(4, '/').nth(3).unwrap_or_default();
            return format!("/{path}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no page for {url} in {body}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Opens the WebSocket at `path` (the upgrade response is read up to its blank line).
fn handshake(port: u16, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("DevTools port");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut status = String::new();
    reader.read_line(&mut status).unwrap();
    assert!(status.contains(" 101 "), "no WebSocket upgrade: {status}");
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
    }
    // The reader buffered nothing past the headers: the server speaks only when asked.
    stream
}

/// Sends one masked text frame (a client must mask; the all-zero key is a valid one).
fn send(stream: &mut TcpStream, payload: &[u8]) {
    let mut frame = vec![0x81];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n <= 0xFFFF => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    stream.write_all(&frame).unwrap();
}

/// Reads one message (joining continuation frames; control frames skipped).
fn receive(stream: &mut TcpStream) -> Vec<u8> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).unwrap();
        let len = match head[1] & 0x7F {
            126 => {
                let mut b = [0u8; 2];
                stream.read_exact(&mut b).unwrap();
                u16::from_be_bytes(b) as usize
            }
            127 => {
                let mut b = [0u8; 8];
                stream.read_exact(&mut b).unwrap();
                u64::from_be_bytes(b) as usize
            }
            n => n as usize,
        };
        let mut payload = vec![0u8; len];
        stream.read_exact(&mut payload).unwrap();
        let opcode = head[0] & 0x0F;
        if opcode >= 0x8 {
            assert!(opcode != 0x8, "the browser closed the DevTools socket");
            continue;
        }
        message.extend_from_slice(&payload);
        if head[0] & 0x80 != 0 {
            return message;
        }
    }
}
