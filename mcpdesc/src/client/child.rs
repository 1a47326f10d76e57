//! The server process of a stdio session: spawned in its own process group, its stderr
//! kept (the last lines) for error messages, and always terminated.
//!
//! Termination is never left to the server: dropping the session kills the whole
//! process group at once (`SIGKILL`; a wrapper like `npx` or a shell script has the real
//! server as a grandchild, which a kill of the direct child alone would leave
//! running). [`ServerProcess::shutdown`] is the graceful path of the MCP stdio
//! lifecycle: stdin closed, a grace period, `SIGTERM`, another grace period, `SIGKILL`.
//! On Windows, where there are no process groups, the direct child is killed.

use std::collections::VecDeque;
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};

/// How many lines of the server's stderr are kept.
const STDERR_LINES: usize = 40;
/// How many characters of one stderr line are kept.
const STDERR_LINE_CHARS: usize = 500;
/// How long an error message waits for the rest of an exited server's stderr.
const STDERR_SETTLE: Duration = Duration::from_millis(500);

/// The last lines the server wrote on stderr.
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    lines: Mutex<VecDeque<String>>,
    /// The pipe reached its end (every line the server wrote is kept).
    ended: std::sync::atomic::AtomicBool,
}

impl StderrTail {
    fn push(&self, line: &str) {
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(super::tap::shorten(line, STDERR_LINE_CHARS));
    }

    /// The kept lines, joined with newlines.
    pub(crate) fn text(&self) -> String {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

/// A spawned server: the process (killed with its group on drop), its exit status
/// once known, and its stderr tail.
#[derive(Debug)]
pub(crate) struct ServerProcess {
    /// `None` once the process has been reaped.
    child: Mutex<Option<Child>>,
    status: Mutex<Option<ExitStatus>>,
    pub(crate) pid: Option<u32>,
    stderr: Arc<StderrTail>,
    stderr_task: Option<tokio::task::JoinHandle<()>>,
}

/// The pipes of a freshly spawned server.
pub(crate) struct Pipes {
    pub(crate) stdin: ChildStdin,
    pub(crate) stdout: ChildStdout,
}

impl ServerProcess {
    /// Spawns `command` with piped stdin/stdout, stderr kept (or inherited), in a new
    /// process group.
    pub(crate) fn spawn(
        mut command: Command,
        inherit_stderr: bool,
    ) -> std::io::Result<(ServerProcess, Pipes)> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if inherit_stderr {
                Stdio::inherit()
            } else {
                Stdio::piped()
            })
            .kill_on_drop(true);
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(std::io::Error::other("the child's stdio pipes are missing"));
        };
        let stderr = Arc::new(StderrTail::default());
        let stderr_task = child
            .stderr
            .take()
            .map(|pipe| tokio::spawn(keep_stderr(pipe, stderr.clone())));
        let process = ServerProcess {
            pid: child.id(),
            child: Mutex::new(Some(child)),
            status: Mutex::new(None),
            stderr,
            stderr_task,
        };
        Ok((process, Pipes { stdin, stdout }))
    }

    /// The exit status, if the process has exited (checked without waiting).
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        let mut status = self.status.lock().unwrap_or_else(|e| e.into_inner());
        if status.is_none() {
            let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(exited) = child.as_mut().and_then(|c| c.try_wait().ok().flatten()) {
                *status = Some(exited);
                *child = None;
            }
        }
        *status
    }

    /// The exit status, waiting up to `within` for the process to exit.
    pub(crate) async fn exit_status_within(&self, within: Duration) -> Option<ExitStatus> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The last lines of the server's stderr (empty when inherited).
    pub(crate) fn stderr_tail(&self) -> String {
        self.stderr.text()
    }

    /// [`ServerProcess::stderr_tail`] once an exited server's last lines are in:
    /// waits (up to [`STDERR_SETTLE`]) for the pipe to end, which it does when the
    /// server exited unless a child of it still holds the pipe.
    pub(crate) async fn settled_stderr_tail(&self) -> String {
        if self.stderr_task.is_some() && self.exit_status().is_some() {
            let deadline = tokio::time::Instant::now() + STDERR_SETTLE;
            while !self.stderr.ended.load(std::sync::atomic::Ordering::Acquire)
                && tokio::time::Instant::now() < deadline
            {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
        self.stderr.text()
    }

    /// The graceful end of the MCP stdio lifecycle, after the caller closed stdin:
    /// wait up to `grace` for the exit, `SIGTERM` the group, wait up to `grace` again,
    /// then `SIGKILL` it. Returns the exit status.
    pub(crate) async fn shutdown(&self, grace: Duration) -> Option<ExitStatus> {
        if let Some(status) = self.exit_status_within(grace).await {
            self.kill_group();
            return Some(status);
        }
        self.signal_group(Signal::Term);
        if let Some(status) = self.exit_status_within(grace).await {
            self.kill_group();
            return Some(status);
        }
        self.kill_group();
        self.exit_status_within(grace).await
    }

    /// `SIGKILL` to the process group (on Windows: the child).
    pub(crate) fn kill_group(&self) {
        self.signal_group(Signal::Kill);
    }

    fn signal_group(&self, signal: Signal) {
        #[cfg(unix)]
        if let Some(pid) = self.pid.and_then(|pid| i32::try_from(pid).ok()) {
            let signal = match signal {
                Signal::Term => libc::SIGTERM,
                Signal::Kill => libc::SIGKILL,
            };
            // SAFETY: `kill` has no memory-safety preconditions. The group id is the
            // pid of the child spawned with `process_group(0)`; the group is ours.
            // A group that no longer exists gives ESRCH, which is fine.
            unsafe {
                libc::kill(-pid, signal);
            }
            return;
        }
        if matches!(signal, Signal::Kill) {
            let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(child) = child.as_mut() {
                let _ = child.start_kill();
            }
        }
    }
}

#[derive(Clone, Copy)]
enum Signal {
    Term,
    Kill,
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // Always: a server (or a grandchild of a wrapper) must never outlive the
        // session. `kill_on_drop` also kills the direct child when `Child` drops.
        self.kill_group();
        if let Some(task) = &self.stderr_task {
            task.abort();
        }
    }
}

/// Keeps the last lines of `pipe` (each cut to [`STDERR_LINE_CHARS`]; never more than
/// one line buffered, however long the server's line is).
async fn keep_stderr(mut pipe: ChildStderr, tail: Arc<StderrTail>) {
    let mut line: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match pipe.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &byte in &chunk[..n] {
            if byte == b'\n' {
                tail.push(String::from_utf8_lossy(&line).trim_end_matches('\r'));
                line.clear();
            } else if line.len() < STDERR_LINE_CHARS * 4 {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        tail.push(&String::from_utf8_lossy(&line));
    }
    tail.ended.store(true, std::sync::atomic::Ordering::Release);
}

/// `program arg1 arg2` for messages (arguments after the third elided).
pub(crate) fn describe(command: &Command) -> String {
    let std = command.as_std();
    let mut text = std.get_program().to_string_lossy().into_owned();
    let args: Vec<_> = std.get_args().collect();
    for arg in args.iter().take(3) {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    if args.len() > 3 {
        text.push_str(" …");
    }
    text
}
