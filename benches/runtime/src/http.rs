//! The greeter over streamable HTTP: served by mcpdesc's `HttpServer` or by the
//! hand-written rmcp server behind rmcp's `StreamableHttpService` nested in axum,
//! each on its own single-threaded tokio runtime on its own OS thread (so the
//! server's CPU time is that thread's, whatever the client and the machine do), and
//! driven by one raw HTTP/1.1 client that both sides answer alike.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{Request, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// The protocol version the client speaks (both servers support it).
pub const VERSION: &str = "2025-11-25";

/// The bearer token the client sends to the secured server (any token passes).
pub const TOKEN: &str = "bench";

/// Which HTTP server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpSide {
    /// The generated router behind `mcpdesc::http::HttpServer`.
    Generated {
        /// Without sessions (`HttpServer::stateless`), JSON answers
        /// (`json_response`, what a stateless deployment behind a load balancer
        /// sets; rmcp's stateless SSE answer through axum does not end its stream
        /// after the result, so a keep-alive client could not reuse the connection).
        stateless: bool,
        /// The router of `greeter-secured.mcpdesc.json`: a declared bearer scheme
        /// checked by the security gate before rmcp (trivial authenticator).
        secured: bool,
    },
    /// The hand-written rmcp `#[tool]` server ([`crate::handwritten::server`])
    /// behind rmcp's `StreamableHttpService`, nested at `/mcp` in an axum router
    /// served by `axum::serve`.
    Handwritten {
        /// Without sessions (rmcp's `legacy_session_mode` off), JSON answers.
        stateless: bool,
    },
}

impl HttpSide {
    /// Whether the side serves without sessions.
    pub fn stateless(self) -> bool {
        match self {
            HttpSide::Generated { stateless, .. } | HttpSide::Handwritten { stateless } => {
                stateless
            }
        }
    }

    /// Whether the client must send a bearer token.
    pub fn secured(self) -> bool {
        matches!(self, HttpSide::Generated { secured: true, .. })
    }

    /// A short label for tables.
    pub fn label(self) -> String {
        match self {
            HttpSide::Generated { secured, .. } => {
                format!("HttpServer{}", if secured { " + bearer gate" } else { "" })
            }
            HttpSide::Handwritten { .. } => "rmcp #[tool] in axum".into(),
        }
    }
}

/// A server running on its own thread; stopped and joined on drop.
pub struct RunningServer {
    addr: SocketAddr,
    cpu: ThreadCpu,
    stop: CancellationToken,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The mcpdesc server (to count its sessions).
    bound: Option<mcpdesc::http::BoundHttpServer>,
}

impl RunningServer {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The CPU time (user and system) its thread has used so far.
    pub fn cpu_time(&self) -> Duration {
        self.cpu.now()
    }

    /// How many sessions the mcpdesc server holds, live and dormant (`None` for the
    /// hand-written one).
    pub async fn open_sessions(&self) -> Option<usize> {
        match &self.bound {
            Some(bound) => Some(bound.open_sessions().await),
            None => None,
        }
    }

    /// How many of them hold a worker (`None` for the hand-written one).
    pub async fn live_sessions(&self) -> Option<usize> {
        match &self.bound {
            Some(bound) => Some(bound.live_sessions().await),
            None => None,
        }
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        self.stop.cancel();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Starts `side` on 127.0.0.1 (a free port) on a thread of its own, running a
/// current-thread tokio runtime.
pub fn start(side: HttpSide) -> RunningServer {
    start_with(side, |server| server)
}

/// Like [`start`], with `configure` applied to the mcpdesc server's builder (the
/// hand-written side ignores it).
pub fn start_with(
    side: HttpSide,
    configure: impl FnOnce(mcpdesc::http::HttpServer) -> mcpdesc::http::HttpServer + Send + 'static,
) -> RunningServer {
    let stop = CancellationToken::new();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let token = stop.clone();
    let thread = std::thread::Builder::new()
        .name(format!("{side:?}"))
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            runtime.block_on(serve(side, configure, token, move |addr, bound| {
                let _ = ready_tx.send((addr, ThreadCpu::current(), bound));
            }));
        })
        .expect("the server thread starts");
    let (addr, cpu, bound) = ready_rx.recv().expect("the server starts");
    RunningServer {
        addr,
        cpu,
        stop,
        thread: Some(thread),
        bound,
    }
}

async fn serve(
    side: HttpSide,
    configure: impl FnOnce(mcpdesc::http::HttpServer) -> mcpdesc::http::HttpServer,
    stop: CancellationToken,
    ready: impl FnOnce(SocketAddr, Option<mcpdesc::http::BoundHttpServer>),
) {
    match side {
        HttpSide::Generated { stateless, secured } => {
            let router = if secured {
                crate::generated::secured::router()
            } else {
                crate::generated::router()
            };
            let server = mcpdesc::http::HttpServer::new(router)
                .stateless(stateless)
                .json_response(stateless);
            let server = configure(server)
                .bind("127.0.0.1:0")
                .await
                .expect("the server binds");
            ready(server.local_addr(), Some(server.clone()));
            let shutdown = server.shutdown_token();
            tokio::spawn(async move {
                stop.cancelled().await;
                shutdown.cancel();
            });
            server.run().await.expect("the server runs");
        }
        HttpSide::Handwritten { stateless } => {
            let config = StreamableHttpServerConfig::default()
                .with_legacy_session_mode(!stateless)
                .with_json_response(stateless)
                .with_cancellation_token(stop.child_token());
            let service = StreamableHttpService::new(
                || Ok(crate::handwritten::server()),
                Arc::new(LocalSessionManager::default()),
                config,
            );
            let app = axum::Router::new().nest_service("/mcp", service);
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("the server binds");
            ready(listener.local_addr().expect("a bound address"), None);
            // Like `HttpListener`: Nagle off, so both sides write their answers alike.
            let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, app)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
                .expect("the server runs");
        }
    }
}

/// The CPU clock of one thread (`pthread_getcpuclockid`), readable from any thread.
#[derive(Debug, Clone, Copy)]
struct ThreadCpu(libc::clockid_t);

impl ThreadCpu {
    /// The calling thread's clock.
    fn current() -> ThreadCpu {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: `pthread_self()` is the calling, live thread; `clock` is a valid
        // out-pointer.
        let status = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
        assert_eq!(status, 0, "pthread_getcpuclockid");
        ThreadCpu(clock)
    }

    /// The thread's CPU time so far.
    fn now(self) -> Duration {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `time` is a valid out-pointer; the clock's thread outlives every
        // reader (a `RunningServer` joins its thread on drop).
        let status = unsafe { libc::clock_gettime(self.0, &mut time) };
        assert_eq!(status, 0, "clock_gettime");
        Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
    }
}

/// The CPU time (user and system) of this whole process so far (`getrusage`).
pub fn process_cpu_time() -> Duration {
    // SAFETY: an all-zero `rusage` is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid out-pointer.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    assert_eq!(status, 0, "getrusage");
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// One keep-alive HTTP/1.1 connection speaking MCP: a session (stateful servers)
/// or bare requests carrying `MCP-Protocol-Version` (stateless ones).
pub struct HttpClient {
    addr: SocketAddr,
    sender: SendRequest<Full<Bytes>>,
    session: Option<String>,
    bearer: bool,
}

/// What one POST got back.
#[derive(Debug)]
pub struct Reply {
    /// The status.
    pub status: StatusCode,
    /// The `Mcp-Session-Id` header, if any.
    pub session: Option<String>,
    /// The whole body (SSE events or JSON).
    pub body: Bytes,
}

impl HttpClient {
    /// A connection to `server` of `side`, initialized when `side` has sessions.
    pub async fn connect(addr: SocketAddr, side: HttpSide) -> HttpClient {
        let mut client = HttpClient::open(addr, side.secured()).await;
        if !side.stateless() {
            let session = client.initialize().await;
            assert!(session.is_some(), "a stateful server opens a session");
        }
        client
    }

    /// A bare connection (nothing sent yet); `bearer` sends [`TOKEN`].
    pub async fn open(addr: SocketAddr, bearer: bool) -> HttpClient {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .expect("the server accepts");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        let (sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
                .await
                .expect("an HTTP/1.1 connection");
        tokio::spawn(connection);
        HttpClient {
            addr,
            sender,
            session: None,
            bearer,
        }
    }

    /// `initialize` then `notifications/initialized` on this connection; the new
    /// session's id (kept for later requests).
    pub async fn initialize(&mut self) -> Option<String> {
        let reply = self.initialize_only().await;
        assert_eq!(reply.status, StatusCode::OK, "initialize: {reply:?}");
        self.session = reply.session;
        let done = self
            .post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string())
            .await;
        assert_eq!(done.status, StatusCode::ACCEPTED, "initialized: {done:?}");
        self.session.clone()
    }

    /// `initialize` alone, outside any session (what a flood sends).
    pub async fn initialize_only(&mut self) -> Reply {
        let session = self.session.take();
        let reply = self
            .post(
                &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": VERSION, "capabilities": {},
                    "clientInfo": {"name": "bench", "version": "1.0.0"}}})
                .to_string(),
            )
            .await;
        self.session = session;
        reply
    }

    /// Forgets the session (the server keeps it until it expires).
    pub fn forget_session(&mut self) {
        self.session = None;
    }

    /// Speaks in session `id` from now on (one opened on another connection).
    pub fn use_session(&mut self, id: String) {
        self.session = Some(id);
    }

    /// One `tools/call` of `greet` (request `i`, the arguments of
    /// [`crate::harness::arguments`]); the body of the answer, checked to be a
    /// result.
    pub async fn call(&mut self, i: usize) -> Bytes {
        let body = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "greet", "arguments": crate::harness::arguments(i)}});
        let reply = self.post(&body.to_string()).await;
        assert_eq!(reply.status, StatusCode::OK, "tools/call: {reply:?}");
        assert!(
            memchr(&reply.body, b"\"structuredContent\""),
            "tools/call answered no result: {reply:?}"
        );
        reply.body
    }

    /// POSTs one JSON-RPC message and reads the whole answer.
    pub async fn post(&mut self, body: &str) -> Reply {
        let mut request = Request::post("/mcp")
            .header("host", self.addr.to_string())
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", VERSION);
        if let Some(session) = &self.session {
            request = request.header("mcp-session-id", session);
        }
        if self.bearer {
            request = request.header("authorization", format!("Bearer {TOKEN}"));
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_owned())))
            .expect("a valid request");
        if self.sender.ready().await.is_err() {
            // The server closed the idle keep-alive connection (mcpdesc's header
            // read timeout covers the wait for the next request): open another;
            // the session, if any, lives on.
            self.sender = HttpClient::open(self.addr, self.bearer).await.sender;
        }
        let response = self
            .sender
            .send_request(request)
            .await
            .expect("the server answers");
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = response
            .into_body()
            .collect()
            .await
            .expect("the whole body")
            .to_bytes();
        Reply {
            status,
            session,
            body,
        }
    }
}

fn memchr(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
