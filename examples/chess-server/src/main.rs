//! `cargo run -p chess-server`: serves the chess description over MCP on stdio, or
//! over streamable HTTP at `http://ADDR/mcp` with `--http ADDR` (an axum application
//! with the MCP endpoint, `GET /healthz`, `GET /readyz` and, with `--metrics`,
//! `GET /metrics`).

use std::time::Duration;

use mcpdesc::http::{HttpListener, HttpServer, RateLimit};
use mcpdesc::telemetry::{Telemetry, OTEL_EXPORTER_OTLP_ENDPOINT};

const USAGE: &str = "usage: chess-server [--http ADDR [HTTP OPTIONS]] [--think-ms N]
  (no option)         serve MCP on stdin/stdout
  --http ADDR         serve streamable HTTP at http://ADDR/mcp, GET /healthz (liveness) and
                      GET /readyz (503 while draining) (ADDR such as 127.0.0.1:8080; port 0
                      picks a free port); loopback Host headers only
  --log-format F      `text` (default) or `json` (one JSON object per line)
  --think-ms N        spend N ms on each ply analyze_game analyses (a stand-in for an
                      engine's thinking time, to watch progress and cancellation)
HTTP options:
  --stateless         serve every request on its own, without sessions (any instance
                      behind a load balancer can answer any request)
  --allowed-origin O  allow browser requests from origin O (scheme://host[:port]);
                      repeatable; by default a request with an Origin header gets 403
                      unless the origin is a loopback one (http://localhost:PORT...)
  --allowed-host H    answer requests whose Host is H (name or name:port; repeatable;
                      default: loopback names only), e.g. a public name behind a proxy
  --max-sessions N    at most N open sessions (default 10000); past it 503
  --hibernate-after-s N
                      an idle session gives up its worker after N seconds (default 5;
                      0: never) and is restored by its next request
  --redis URL         keep sessions (their handshake, their owner, log level and
                      subscriptions), tasks and the events of SSE streams in Redis
                      at URL (redis://HOST:PORT/DB): every instance using the same
                      Redis serves every session and task, behind a plain
                      round-robin balancer, and change notifications reach the
                      subscribed sessions of every instance
  --grace-s N         on SIGTERM or Ctrl-C, let requests in flight finish for up to
                      N seconds (default 30), then exit 0
  --rate-limit N      at most N requests per second per client (the principal when
                      authenticated, else the IP address; bursts of N); past it 429
                      with Retry-After (default: no limit)
  --metrics           serve GET /metrics: Prometheus text of the OpenTelemetry MCP
                      metrics (mcp_server_operation_duration_seconds, ...)
Logs: RUST_LOG (default `warn`; `mcpdesc=info` gives one event per MCP request).
Traces: with OTEL_EXPORTER_OTLP_ENDPOINT set (http://collector:4318), spans and
metrics are exported over OTLP/HTTP.";

/// The command line.
struct Options {
    http: Option<String>,
    think_time: Duration,
    stateless: bool,
    allowed_origins: Vec<String>,
    allowed_hosts: Vec<String>,
    max_sessions: usize,
    /// `None`: sessions never hibernate.
    hibernate_after: Option<Duration>,
    /// The shared state's Redis URL.
    redis: Option<String>,
    grace: Duration,
    /// Requests per second per client; `None`: no limit.
    rate_limit: Option<u32>,
    /// Serve `/metrics`.
    metrics: bool,
    /// Log lines as JSON objects.
    json_logs: bool,
}

fn number<T: std::str::FromStr>(
    flag: &str,
    args: &mut impl Iterator<Item = String>,
) -> Result<T, String> {
    let value = args.next().ok_or(format!("{flag} needs a number"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: `{value}` is not a number"))
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        http: None,
        think_time: Duration::ZERO,
        stateless: false,
        allowed_origins: Vec::new(),
        allowed_hosts: Vec::new(),
        max_sessions: mcpdesc::http::DEFAULT_MAX_SESSIONS,
        hibernate_after: Some(mcpdesc::http::DEFAULT_HIBERNATE_AFTER),
        redis: None,
        grace: Duration::from_secs(30),
        rate_limit: None,
        metrics: false,
        json_logs: false,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => options.http = Some(args.next().ok_or("--http needs an address")?),
            "--think-ms" => {
                options.think_time = Duration::from_millis(number("--think-ms", &mut args)?)
            }
            "--stateless" => options.stateless = true,
            "--allowed-origin" => options
                .allowed_origins
                .push(args.next().ok_or("--allowed-origin needs an origin")?),
            "--allowed-host" => options
                .allowed_hosts
                .push(args.next().ok_or("--allowed-host needs a host")?),
            "--max-sessions" => options.max_sessions = number("--max-sessions", &mut args)?,
            "--hibernate-after-s" => {
                let seconds: u64 = number("--hibernate-after-s", &mut args)?;
                options.hibernate_after = (seconds > 0).then(|| Duration::from_secs(seconds));
            }
            "--rate-limit" => match number("--rate-limit", &mut args)? {
                0 => return Err("--rate-limit needs a number above 0".into()),
                n => options.rate_limit = Some(n),
            },
            "--redis" => options.redis = Some(args.next().ok_or("--redis needs a URL")?),
            "--metrics" => options.metrics = true,
            "--log-format" => match args.next().as_deref() {
                Some("text") => options.json_logs = false,
                Some("json") => options.json_logs = true,
                _ => return Err("--log-format needs `text` or `json`".into()),
            },
            "--grace-s" => options.grace = Duration::from_secs(number("--grace-s", &mut args)?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

#[tokio::main]
async fn main() {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("chess-server: {problem}");
            }
            eprintln!("{USAGE}");
            std::process::exit(if problem.is_empty() { 0 } else { 2 });
        }
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr);
    if options.json_logs {
        logs.json().init();
    } else {
        logs.init();
    }
    let router = chess_server::router_thinking(options.think_time);
    let outcome = match &options.http {
        Some(addr) => serve_http(router, addr, &options).await,
        None => mcpdesc::serve_stdio(router).await,
    };
    if let Err(e) = outcome {
        eprintln!("chess-server: {e}");
        std::process::exit(1);
    }
}

async fn serve_http(
    router: mcpdesc::Router,
    addr: &str,
    options: &Options,
) -> Result<(), mcpdesc::Error> {
    let mut server = HttpServer::new(router);
    if !options.allowed_hosts.is_empty() {
        server = server.allowed_hosts(options.allowed_hosts.clone());
    }
    if let Some(limit) = options.rate_limit.and_then(RateLimit::per_second) {
        server = server.rate_limit(limit);
    }
    if let Some(url) = &options.redis {
        // Lazy: the server starts while Redis is down and answers 503 until it is up.
        let state = mcpdesc::state::RedisState::open(url)
            .map_err(|e| mcpdesc::Error::Http(format!("--redis: {e}")))?
            // A client resumes a broken stream on any instance (`Last-Event-ID`).
            .with_resumable_streams(std::time::Duration::from_secs(300));
        server = server.shared_state(std::sync::Arc::new(state));
    }
    let server = server
        .stateless(options.stateless)
        .allowed_origins(options.allowed_origins.clone())
        .max_sessions(options.max_sessions)
        .hibernate_after(options.hibernate_after);
    // Telemetry when `/metrics` is asked for or an OTLP collector is named.
    let otlp = std::env::var_os(OTEL_EXPORTER_OTLP_ENDPOINT).is_some_and(|v| !v.is_empty());
    let telemetry = match options.metrics || otlp {
        true => Some(
            Telemetry::from_env("chess-server")
                .map_err(|e| mcpdesc::Error::Http(format!("telemetry: {e}")))?,
        ),
        false => None,
    };
    let mut server = match &telemetry {
        Some(telemetry) => server.telemetry(telemetry.clone()),
        None => server,
    };
    let drain = server.drain();
    // `/healthz` stays 200 while draining; `/readyz` turns 503 once the drain starts.
    let mut app = server.health_routes();
    if options.metrics {
        app = app.merge(server.metrics_routes());
    }
    let app = app.merge(server.into_router()?);
    let listener = HttpListener::bind(addr).await?;
    // Tests and scripts read the address from this line (port 0 picks one).
    eprintln!(
        "chess-server: serving MCP at http://{}/mcp",
        listener.local_addr()
    );
    let grace = options.grace;
    listener
        .serve(app, async move {
            stop_signal().await;
            eprintln!("chess-server: draining (up to {} s)", grace.as_secs());
            let report = drain.shutdown(grace).await;
            // Tests and operators read this line: what was waited for, what was cut.
            eprintln!("chess-server: drained: {report}");
            // The spans still batched go out before the process ends.
            if let Some(telemetry) = telemetry {
                let _ = tokio::task::spawn_blocking(move || telemetry.shutdown()).await;
            }
        })
        .await
}

/// SIGTERM or Ctrl-C (SIGINT).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
