//! The client side of MCP's stdio framing (one JSON-RPC message per line) over any
//! byte stream pair, recording raw results in the session's [`Tap`].
//!
//! rmcp's own `AsyncRwTransport` (inside `TokioChildProcess`) parses each line straight
//! into its typed messages, and skips a line that is not JSON without telling anyone.
//! This transport reads the lines itself: each line is parsed as JSON once, noted in
//! the tap, then converted into rmcp's message type. A line that is not JSON ends the
//! session with a recorded reason (or, when tolerated, is kept as noise and skipped).

use std::sync::Arc;

use futures::StreamExt;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleClient;
use serde::Deserialize;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, Mutex};
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

use super::tap::{shorten, Hangup, Tap, NOISE_LINE_CHARS};

/// How many parsed messages wait for rmcp before the reader pauses.
const QUEUE: usize = 64;

type Writer = Box<dyn AsyncWrite + Send + Unpin>;

/// An rmcp client transport over a line-framed byte stream pair.
///
/// [`LineTransport::share`] gives another handle on the same connection: a handshake
/// that fails over one handle (MCP 2026-07-28 discovery refused by an older server)
/// leaves the connection open for the next attempt over another.
pub(crate) struct LineTransport {
    incoming: Arc<Mutex<mpsc::Receiver<ServerJsonRpcMessage>>>,
    writer: Arc<Mutex<Option<Writer>>>,
    tap: Arc<Tap>,
    reader: Arc<AbortOnDrop>,
}

/// Stops the reader task when the last handle goes.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl LineTransport {
    /// Starts reading `read` on a task; `write` receives one line per message.
    pub(crate) fn new<R, W>(
        read: R,
        write: W,
        tap: Arc<Tap>,
        max_line: usize,
        tolerate_noise: bool,
    ) -> Self
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let (tx, incoming) = mpsc::channel(QUEUE);
        let reader = tokio::spawn(read_lines(read, tx, tap.clone(), max_line, tolerate_noise));
        LineTransport {
            incoming: Arc::new(Mutex::new(incoming)),
            writer: Arc::new(Mutex::new(Some(Box::new(write)))),
            tap,
            reader: Arc::new(AbortOnDrop(reader)),
        }
    }

    /// Another handle on the same connection.
    pub(crate) fn share(&self) -> LineTransport {
        LineTransport {
            incoming: self.incoming.clone(),
            writer: self.writer.clone(),
            tap: self.tap.clone(),
            reader: self.reader.clone(),
        }
    }
}

/// Reads lines until EOF, bad input, or until nobody receives any more.
async fn read_lines<R>(
    read: R,
    tx: mpsc::Sender<ServerJsonRpcMessage>,
    tap: Arc<Tap>,
    max_line: usize,
    tolerate_noise: bool,
) where
    R: AsyncRead + Send + Unpin + 'static,
{
    let mut lines = FramedRead::new(read, LinesCodec::new_with_max_length(max_line));
    while let Some(line) = lines.next().await {
        let line = match line {
            Ok(line) => line,
            Err(LinesCodecError::MaxLineLengthExceeded) => {
                tap.hang_up(Hangup::LineTooLong(max_line));
                return;
            }
            Err(LinesCodecError::Io(e)) => {
                tap.hang_up(Hangup::Read(e.to_string()));
                return;
            }
        };
        let text = line.trim_start_matches('\u{feff}');
        if text.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str::<Value>(text).ok();
        if let Some(value) = &value {
            if tap.is_abandoned(value) {
                continue; // the late answer to a handshake given up on
            }
            tap.note_incoming(value);
        }
        let message = value
            .as_ref()
            .and_then(|value| ServerJsonRpcMessage::deserialize(value).ok());
        match message {
            Some(message) => {
                if tx.send(message).await.is_err() {
                    return;
                }
            }
            // A notification rmcp cannot parse (an unknown shape of a known method):
            // nobody waits for it, so it is skipped like rmcp's own transport does.
            None if value.as_ref().is_some_and(is_notification) => tap.note_noise(text),
            None if tolerate_noise => tap.note_noise(text),
            None => {
                tap.hang_up(Hangup::NotJsonRpc(shorten(text, NOISE_LINE_CHARS)));
                return;
            }
        }
    }
}

/// A JSON-RPC notification: a `method` and no `id`.
fn is_notification(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|o| o.contains_key("method") && !o.contains_key("id"))
}

impl Transport<RoleClient> for LineTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.tap.note_outgoing(&item);
        let writer = self.writer.clone();
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut writer = writer.lock().await;
            let Some(writer) = writer.as_mut() else {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotConnected,
                    "the transport is closed",
                ));
            };
            writer.write_all(&line).await?;
            writer.flush().await
        }
    }

    async fn receive(&mut self) -> Option<ServerJsonRpcMessage> {
        // Locking and `recv` are both cancel-safe; one handle reads at a time.
        self.incoming.lock().await.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Dropping the writer closes the server's stdin: the MCP stdio shutdown signal.
        let writer = self.writer.lock().await.take();
        if let Some(mut writer) = writer {
            let _ = writer.shutdown().await;
        }
        Ok(())
    }
}
