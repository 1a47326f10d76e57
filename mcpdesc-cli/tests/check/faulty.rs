//! Servers that crash, hang, write garbage or never initialize are reported in bounded
//! time; Ctrl-C stops the check and the server.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{check_command, chess, failures, tempdir, wrapped, MCPDESC};

#[test]
fn servers_that_crash_hang_or_write_garbage_are_reported_in_bounded_time() {
    let one = [
        "--examples",
        "analyze_game/scholars-mate",
        "--timeout",
        "2",
        "--format",
        "json",
    ];
    // Crashes when a tool is called: a finding, exit 1.
    let (code, out, err, took) =
        check_command(&one, &wrapped("echo 'fatal: out of memory' >&2; exit 7"));
    assert_eq!(code, 1, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        failures(&report),
        [("server-exited".to_owned(), String::new())],
        "{report:#}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");
    // Hangs on a call: the call times out (a finding), the server is killed at the end.
    let (code, out, err, took) = check_command(&one, &wrapped("sleep 30"));
    assert_eq!(code, 1, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        failures(&report),
        [("no-answer".to_owned(), "analyze_game".to_owned())],
        "{report:#}"
    );
    assert_eq!(report["calls"][0]["outcome"], "timeout");
    assert!(took < Duration::from_secs(15), "{took:?}");
    // Garbage on stdout in answer to a call: the session ends, a finding names the line.
    let (code, out, _, took) = check_command(&one, &wrapped("echo 'Segmentation fault' >&3"));
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["findings"][0]["kind"], "server-exited", "{report:#}");
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Segmentation fault"),
        "{report:#}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");

    // Before the handshake, each is exit 2 with a clear message.
    let sh = |script: &str| vec!["sh".to_owned(), "-c".to_owned(), script.to_owned()];
    for (script, says) in [
        (
            "echo 'no database' >&2; exit 3",
            "exited (exit status: 3) before the handshake completed",
        ),
        (
            "echo 'Server ready!'; sleep 30",
            "wrote a line that is not a JSON-RPC message",
        ),
        ("exec sleep 30", "did not complete the handshake within 1 s"),
    ] {
        let (code, out, err, took) = check_command(&["--timeout", "1"], &sh(script));
        assert_eq!(code, 2, "{script}: {out}{err}");
        assert!(out.is_empty());
        assert!(err.starts_with("error: the check could not run: "), "{err}");
        assert!(err.contains(says), "{script}: {err}");
        assert!(took < Duration::from_secs(10), "{script}: {took:?}");
    }
    let (code, _, err, _) = check_command(&[], &["mcpdesc-no-such-server".to_owned()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("could not start the MCP server `mcpdesc-no-such-server`"),
        "{err}"
    );
}

/// The spawned server runs in its own process group, out of reach of the terminal's
/// Ctrl-C: `check` ends it itself when interrupted, even during the handshake.
#[cfg(target_os = "linux")] // reads /proc
#[test]
fn ctrl_c_stops_the_check_and_the_server() {
    let dir = tempdir("ctrl-c");
    let pid_file = dir.join("pid");
    let check = std::process::Command::new(MCPDESC)
        .arg("check")
        .arg(chess())
        .args(["--timeout", "60", "--", "sh", "-c"])
        .arg(format!("echo $$ > {}; exec sleep 120", pid_file.display()))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pid_file.exists() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = std::process::Command::new("kill")
        .args(["-INT", &check.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = check.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("interrupted; the server was stopped"),
        "{stderr}"
    );
    // Gone, or a zombie waiting for a reaper: either way no longer running. `check`
    // sends SIGKILL to the group as it exits; on a loaded machine the kernel may take a
    // moment to run the dying process's exit, so it is given a few seconds (a server
    // that survived would still be there after them).
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    let state_of = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| {
                stat.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_owned()
            })
            .unwrap_or_default()
    };
    let stopped = Instant::now();
    let mut state = state_of();
    while !(state.is_empty() || state == "Z") && stopped.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
        state = state_of();
    }
    assert!(
        state.is_empty() || state == "Z",
        "the server {pid} is in state {state} 5 s after check exited"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
