//! A session's standalone SSE stream (`GET /mcp`), where a streamable HTTP server
//! sends what is not the answer to a request (change notifications, log messages
//! outside a request's stream): its JSON-RPC messages as they come, with their SSE
//! event ids; resumed after one (`Last-Event-ID`) when asked. Dropping the stream
//! closes its connection.

#![allow(dead_code)] // Each including test uses part of it.

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::{Request, StatusCode};
use serde_json::Value;
use std::time::Duration;
use tokio::sync::mpsc;

use super::wire::{Client, VERSION};

/// The JSON-RPC messages of `client`'s session's standalone SSE stream, opened on
/// the instance `client` points at (opening it there restores the session when that
/// instance has not seen it).
pub struct Stream {
    /// Each message with its event id (empty when the event had none).
    messages: mpsc::UnboundedReceiver<(String, Value)>,
    reader: tokio::task::JoinHandle<()>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

impl Stream {
    pub async fn open(client: &Client) -> Stream {
        Stream::resume(client, None).await
    }

    /// The stream, resumed after `last_event_id` when given.
    pub async fn resume(client: &Client, last_event_id: Option<&str>) -> Stream {
        let stream = tokio::net::TcpStream::connect(client.addr).await.unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .unwrap();
        tokio::spawn(connection);
        let mut request = Request::get(client.path.as_str())
            .header("host", client.addr.to_string())
            .header("accept", "text/event-stream")
            .header("mcp-session-id", client.session.clone().unwrap())
            .header("mcp-protocol-version", VERSION);
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id);
        }
        let request = request.body(Empty::<Bytes>::new()).unwrap();
        let response = sender.send_request(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET /mcp");
        let (tx, messages) = mpsc::unbounded_channel();
        let mut body = response.into_body();
        let reader = tokio::spawn(async move {
            let mut pending = String::new();
            // The event being read: its id and data lines, sent at its blank line.
            let (mut id, mut data) = (String::new(), String::new());
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(bytes) = frame.into_data() else {
                    continue;
                };
                pending.push_str(&String::from_utf8_lossy(&bytes));
                while let Some(end) = pending.find('\n') {
                    let line: String = pending.drain(..=end).collect();
                    if let Some(value) = line.strip_prefix("id:") {
                        id = value.trim().to_owned();
                    } else if let Some(value) = line.strip_prefix("data:") {
                        data.push_str(value.trim());
                    } else if line.trim().is_empty() {
                        if let Ok(message) = serde_json::from_str::<Value>(&data) {
                            let _ = tx.send((std::mem::take(&mut id), message));
                        }
                        id.clear();
                        data.clear();
                    }
                }
            }
        });
        Stream { messages, reader }
    }

    /// The next message of `method` within `within`; `None` when none came.
    pub async fn next(&mut self, method: &str, within: Duration) -> Option<Value> {
        self.next_event(method, within)
            .await
            .map(|(_, message)| message)
    }

    /// The next message of `method` within `within` with its event id (empty when
    /// it had none); `None` when none came.
    pub async fn next_event(&mut self, method: &str, within: Duration) -> Option<(String, Value)> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let (id, message) = tokio::time::timeout_at(deadline, self.messages.recv())
                .await
                .ok()??;
            if message["method"] == method {
                return Some((id, message));
            }
        }
    }

    /// The next log message (`notifications/message`) whose data contains `text`,
    /// within `within`, with its event id; `None` when none came.
    pub async fn next_log(&mut self, text: &str, within: Duration) -> Option<(String, Value)> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let (id, message) = self.next_event("notifications/message", left).await?;
            if message["params"]["data"].to_string().contains(text) {
                return Some((id, message));
            }
        }
    }
}
