//! The server's resident memory: the peak (`VmHWM`) after `initialize` and 100
//! `tools/call`s over stdio, with every answer checked.

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// How many calls the probe makes.
pub const CALLS: usize = 100;

/// Runs `binary`, talks MCP to it over stdio, and returns its peak resident set in
/// KiB.
pub fn peak_rss_kib(binary: &Path) -> io::Result<u64> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let result = converse(&mut child);
    // Closing stdin ends the server; kill it anyway if the conversation failed.
    drop(child.stdin.take());
    if result.is_err() {
        let _ = child.kill();
    }
    let _ = child.wait();
    result
}

fn converse(child: &mut std::process::Child) -> io::Result<u64> {
    let pid = child.id();
    let mut stdin = child
        .stdin
        .take()
        .ok_or_else(|| io::Error::other("no stdin"))?;
    let mut stdout = BufReader::new(
        child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?,
    );
    let mut send = |line: &str| -> io::Result<()> {
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    };
    let mut answer = |id: usize| -> io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if stdout.read_line(&mut line)? == 0 {
                return Err(io::Error::other(format!(
                    "the server closed stdout before answering {id}"
                )));
            }
            // `"id":1` must not match `"id":10`.
            if line.contains(&format!("\"id\":{id},")) || line.contains(&format!("\"id\":{id}}}")) {
                return Ok(line.clone());
            }
        }
    };
    send(
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"adoption-bench","version":"0"}}}"#,
    )?;
    let init = answer(0)?;
    if !init.contains("\"result\"") {
        return Err(io::Error::other(format!("initialize failed: {init}")));
    }
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)?;
    for id in 1..=CALLS {
        send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"greet","arguments":{{"name":"Ada","excited":true}}}}}}"#
        ))?;
        let reply = answer(id)?;
        if !reply.contains("Hello, Ada!") || reply.contains("\"isError\":true") {
            return Err(io::Error::other(format!("call {id} failed: {reply}")));
        }
    }
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| io::Error::other("no VmHWM in /proc/<pid>/status"))
}
