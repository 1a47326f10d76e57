//! A small MCP-over-HTTP client for the security tests: hyper on a fresh loopback
//! connection per request, raw JSON-RPC, every response header kept.

#![allow(dead_code)] // Each including test uses part of it.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{HeaderMap, Request, StatusCode};
use serde_json::{json, Value};
use tokio::net::TcpStream;

/// The protocol version the tests speak.
pub const VERSION: &str = "2025-11-25";

/// What the client reads back.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    /// Every `WWW-Authenticate` value.
    pub fn challenges(&self) -> Vec<String> {
        self.headers
            .get_all("www-authenticate")
            .iter()
            .map(|v| v.to_str().unwrap().to_owned())
            .collect()
    }

    /// The JSON body (a 401/403 or the metadata).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    /// The JSON-RPC messages of the body: the JSON body, or each SSE `data:` line.
    pub fn messages(&self) -> Vec<Value> {
        let content_type = self
            .headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        if content_type.starts_with("application/json") {
            return vec![self.json()];
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .filter(|data| !data.is_empty())
            .map(|data| serde_json::from_str(data).unwrap())
            .collect()
    }

    /// The message answering request `id`.
    pub fn answer(&self, id: i64) -> Value {
        assert_eq!(self.status, StatusCode::OK, "{self:?}");
        self.messages()
            .into_iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {id} in {}", self.body))
    }
}

/// Sends one request on a fresh connection (with a 20 s hang guard).
pub async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
) -> Reply {
    let exchange = async {
        let stream = TcpStream::connect(addr).await.unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .unwrap();
        tokio::spawn(connection);
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header("host", addr.to_string());
        for (name, value) in headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let response = sender
            .send_request(request.body(Full::new(Bytes::from(body))).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.unwrap().to_bytes();
        Reply {
            status,
            headers,
            body: String::from_utf8(body.to_vec()).unwrap(),
        }
    };
    tokio::time::timeout(Duration::from_secs(20), exchange)
        .await
        .expect("the server answered within 20 s")
}

/// An MCP session over HTTP with fixed credentials.
#[derive(Debug, Clone)]
pub struct Client {
    pub addr: SocketAddr,
    pub path: String,
    /// Extra headers sent with every request (credentials).
    pub headers: Vec<(String, String)>,
    pub session: Option<String>,
    /// The `MCP-Protocol-Version` header after `initialize` (default [`VERSION`]).
    pub version_header: String,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Self {
        Client {
            addr,
            path: "/mcp".into(),
            headers: Vec::new(),
            session: None,
            version_header: VERSION.into(),
        }
    }

    pub fn bearer(addr: SocketAddr, token: &str) -> Self {
        Client::new(addr).header("authorization", &format!("Bearer {token}"))
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn path(mut self, path: &str) -> Self {
        self.path = path.into();
        self
    }

    /// POSTs one JSON-RPC message.
    pub async fn post(&self, message: Value) -> Reply {
        let mut headers = self.headers.clone();
        headers.push(("content-type".into(), "application/json".into()));
        headers.push((
            "accept".into(),
            "application/json, text/event-stream".into(),
        ));
        if let Some(session) = &self.session {
            headers.push(("mcp-session-id".into(), session.clone()));
            headers.push(("mcp-protocol-version".into(), self.version_header.clone()));
        }
        send(
            self.addr,
            "POST",
            &self.path,
            &headers,
            message.to_string().into_bytes(),
        )
        .await
    }

    /// `initialize` (and `notifications/initialized` when it succeeded); the reply
    /// to `initialize`.
    pub async fn initialize(&mut self) -> Reply {
        let reply = self
            .post(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": VERSION, "capabilities": {},
                "clientInfo": {"name": "security-test", "version": "1.0.0"}}}),
            )
            .await;
        if reply.status == StatusCode::OK {
            self.session = reply
                .headers
                .get("mcp-session-id")
                .map(|v| v.to_str().unwrap().to_owned());
            let initialized = self
                .post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
            assert_eq!(initialized.status, StatusCode::ACCEPTED, "{initialized:?}");
        }
        reply
    }

    /// `tools/call` of `name` with no arguments, as request `id`.
    pub async fn call_tool(&self, id: i64, name: &str) -> Reply {
        self.post(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": name, "arguments": {}}}))
            .await
    }

    /// The text of the first content block of a successful `tools/call` answer.
    pub async fn tool_text(&self, id: i64, name: &str) -> String {
        let answer = self.call_tool(id, name).await.answer(id);
        assert_eq!(answer["result"]["isError"], Value::Null, "{answer}");
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"))
            .to_owned()
    }
}
