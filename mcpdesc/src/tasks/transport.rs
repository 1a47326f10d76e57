//! A byte-stream transport for rmcp with the task rewrites of [`super::wire`]
//! applied to every newline-delimited message in both directions.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};

use super::wire;

/// The buffer of each internal pipe.
const PIPE_BYTES: usize = 64 * 1024;

/// Wraps a newline-delimited JSON-RPC transport (stdin/stdout, a socket, a duplex
/// pipe) so that MCP 2025-11-25 tasks reach an `McpServer`:
/// serve the returned pair with rmcp instead of `(read, write)`.
/// `serve_stdio` and `mcpdesc::http` do this already; a server
/// on another transport without it answers task-augmented calls synchronously and
/// `tasks/*` with `-32601`.
///
/// Must be called inside a Tokio runtime: two tasks copy the messages.
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router, socket: tokio::net::TcpStream) -> Result<(), Box<dyn std::error::Error>> {
/// use mcpdesc::rmcp::ServiceExt;
///
/// let (read, write) = socket.into_split();
/// let io = mcpdesc::tasks::routed(read, write);
/// mcpdesc::McpServer::new(router).into_service().serve(io).await?.waiting().await?;
/// # Ok(()) }
/// ```
pub fn routed<R, W>(read: R, write: W) -> (DuplexStream, DuplexStream)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (server_in, pump_in) = tokio::io::duplex(PIPE_BYTES);
    let (server_out, pump_out) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(pump(read, pump_in, wire::inbound));
    tokio::spawn(pump(pump_out, write, wire::outbound));
    (server_in, server_out)
}

/// Copies `from` to `to` line by line, rewriting each line with `rewrite`, until
/// `from` ends or `to` fails; then shuts `to` down.
async fn pump<R, W>(from: R, mut to: W, rewrite: fn(&[u8]) -> Option<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        match from.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let body = line.strip_suffix(b"\n").unwrap_or(&line);
        let written = match rewrite(body) {
            Some(mut rewritten) => {
                rewritten.push(b'\n');
                to.write_all(&rewritten).await
            }
            None => to.write_all(&line).await,
        };
        if written.is_err() || to.flush().await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}
