//! A session's standalone SSE stream (`GET /mcp`), where a streamable HTTP server
//! sends what is not the answer to a request (change notifications, log messages
//! outside a request's stream): its JSON-RPC messages as they come.

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
    messages: mpsc::UnboundedReceiver<Value>,
}

impl Stream {
    pub async fn open(client: &Client) -> Stream {
        let stream = tokio::net::TcpStream::connect(client.addr).await.unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .unwrap();
        tokio::spawn(connection);
        let request = Request::get(client.path.as_str())
            .header("host", client.addr.to_string())
            .header("accept", "text/event-stream")
            .header("mcp-session-id", client.session.clone().unwrap())
            .header("mcp-protocol-version", VERSION)
            .body(Empty::<Bytes>::new())
            .unwrap();
        let response = sender.send_request(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "GET /mcp");
        let (tx, messages) = mpsc::unbounded_channel();
        let mut body = response.into_body();
        tokio::spawn(async move {
            let mut pending = String::new();
            while let Some(Ok(frame)) = body.frame().await {
                let Ok(data) = frame.into_data() else {
                    continue;
                };
                pending.push_str(&String::from_utf8_lossy(&data));
                while let Some(end) = pending.find('\n') {
                    let line: String = pending.drain(..=end).collect();
                    if let Some(data) = line.strip_prefix("data:") {
                        if let Ok(message) = serde_json::from_str::<Value>(data.trim()) {
                            let _ = tx.send(message);
                        }
                    }
                }
            }
        });
        Stream { messages }
    }

    /// The next message of `method` within `within`; `None` when none came.
    pub async fn next(&mut self, method: &str, within: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let message = tokio::time::timeout_at(deadline, self.messages.recv())
                .await
                .ok()??;
            if message["method"] == method {
                return Some(message);
            }
        }
    }
}
