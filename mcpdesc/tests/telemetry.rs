//! Telemetry in the OpenTelemetry MCP conventions over real HTTP
//! (`HttpServer::telemetry`): the Prometheus text at `/metrics`, parsed by a real
//! parser (`prometheus-parse`), counts known calls with their labels (a tool error
//! and a JSON-RPC error among them) and a session's end; an OTLP/HTTP receiver
//! started by the test (axum, decoding the protobuf with `opentelemetry-proto`)
//! gets the `tools/call` span, continuing the caller's `traceparent`, with the
//! session, the request id and the principal's subject, and no argument value.

#![cfg(all(feature = "telemetry", feature = "axum"))]

#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::telemetry::{Telemetry, METRICS_PATH, OTEL_EXPORTER_OTLP_ENDPOINT};
use mcpdesc::{Router, ServerInfo, ToolResult, ToolSpec};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use prometheus_parse::{Sample, Scrape, Value};
use prost::Message;
use serde_json::json;
use wire::{send, Client};

const FINE: ToolSpec = ToolSpec::new(
    "fine",
    &[],
    r#"{"name": "fine", "inputSchema": {"type": "object"}}"#,
);
const BROKEN: ToolSpec = ToolSpec::new(
    "broken",
    &[],
    r#"{"name": "broken", "inputSchema": {"type": "object"}}"#,
);

const SECURITY: &str = r#"{
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "security": [{"bearer": []}]
}"#;

fn router() -> Router {
    Router::new(ServerInfo::new("observed", "1.0.0"))
        .tool(FINE, |_, _| {
            Box::pin(async { Ok(ToolResult::text("fine")) })
        })
        .tool(BROKEN, |_, _| {
            Box::pin(async { Ok(ToolResult::error("it broke")) })
        })
}

/// Serves `server` with its `/metrics` next to the MCP endpoint.
async fn start(mut server: HttpServer) -> SocketAddr {
    let app = server
        .metrics_routes()
        .merge(server.into_router().expect("a valid router"));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// `GET /metrics`, parsed.
async fn scrape(addr: SocketAddr) -> Scrape {
    let reply = send(addr, "GET", METRICS_PATH, &[], Vec::new()).await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    assert!(
        reply.headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text"),
        "{reply:?}"
    );
    Scrape::parse(reply.body.lines().map(|l| Ok(l.to_owned()))).expect("Prometheus text")
}

/// The histogram samples named `metric` whose labels include `labels` (and, for
/// each label in `absent`, lack it).
fn histograms<'a>(
    scrape: &'a Scrape,
    metric: &str,
    labels: &[(&str, &str)],
    absent: &[&str],
) -> Vec<&'a Sample> {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == metric)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(v)))
        .filter(|s| absent.iter().all(|k| s.labels.get(k).is_none()))
        .collect()
}

/// The number of observations of one histogram sample (its `+Inf` bucket).
fn count(sample: &Sample) -> f64 {
    match &sample.value {
        Value::Histogram(buckets) => buckets
            .iter()
            .find(|b| b.less_than.is_infinite())
            .map(|b| b.count)
            .expect("a +Inf bucket"),
        other => panic!("not a histogram: {other:?}"),
    }
}

const OPERATIONS: &str = "mcp_server_operation_duration_seconds";

#[tokio::test]
async fn metrics_count_calls_errors_and_sessions_in_prometheus_names() {
    let telemetry = Telemetry::new();
    let addr = start(HttpServer::new(router()).telemetry(telemetry.clone())).await;
    let mut client = Client::new(addr);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    for id in 1..=3 {
        assert_eq!(client.tool_text(id, "fine").await, "fine");
    }
    let broken = client.call_tool(4, "broken").await.answer(4);
    assert_eq!(broken["result"]["isError"], true, "{broken}");
    let unknown = client.call_tool(5, "missing").await.answer(5);
    let code = unknown["error"]["code"].as_i64().expect("a JSON-RPC error");

    let scrape = scrape(addr).await;
    let version = [
        ("mcp_protocol_version", wire::VERSION),
        ("network_transport", "tcp"),
    ];
    let fine = histograms(
        &scrape,
        OPERATIONS,
        &[
            ("mcp_method_name", "tools/call"),
            ("gen_ai_tool_name", "fine"),
            version[0],
            version[1],
        ],
        &["error_type"],
    );
    assert_eq!(fine.len(), 1, "{:#?}", scrape.samples);
    assert_eq!(count(fine[0]), 3.0);
    let broken = histograms(
        &scrape,
        OPERATIONS,
        &[("gen_ai_tool_name", "broken"), ("error_type", "tool_error")],
        &[],
    );
    assert_eq!(broken.len(), 1, "{:#?}", scrape.samples);
    assert_eq!(count(broken[0]), 1.0);
    let code = code.to_string();
    let missing = histograms(
        &scrape,
        OPERATIONS,
        &[
            ("mcp_method_name", "tools/call"),
            ("gen_ai_tool_name", "missing"),
            ("error_type", &code),
        ],
        &[],
    );
    assert_eq!(missing.len(), 1, "{:#?}", scrape.samples);
    assert_eq!(count(missing[0]), 1.0);
    let initialize = histograms(
        &scrape,
        OPERATIONS,
        &[("mcp_method_name", "initialize"), version[0]],
        &["error_type", "gen_ai_tool_name"],
    );
    assert_eq!(initialize.len(), 1, "{:#?}", scrape.samples);
    assert_eq!(count(initialize[0]), 1.0);
    // `_count` and `_sum` come with each histogram.
    assert!(scrape
        .samples
        .iter()
        .any(|s| s.metric == "mcp_server_operation_duration_seconds_count"));

    // No session has ended yet; a `DELETE` ends one.
    assert!(histograms(&scrape, "mcp_server_session_duration_seconds", &[], &[]).is_empty());
    let headers = [
        ("mcp-session-id".to_owned(), client.session.clone().unwrap()),
        ("mcp-protocol-version".to_owned(), wire::VERSION.to_owned()),
    ];
    let deleted = send(addr, "DELETE", "/mcp", &headers, Vec::new()).await;
    assert!(deleted.status.is_success(), "{deleted:?}");
    let scrape = self::scrape(addr).await;
    let sessions = histograms(
        &scrape,
        "mcp_server_session_duration_seconds",
        &[version[0], version[1]],
        &[],
    );
    assert_eq!(sessions.len(), 1, "{:#?}", scrape.samples);
    assert_eq!(count(sessions[0]), 1.0);
}

/// The spans an OTLP/HTTP receiver got.
type Received = Arc<Mutex<Vec<Span>>>;

/// An OTLP/HTTP receiver: `POST /v1/traces` (protobuf) and `/v1/metrics`.
async fn receiver() -> (SocketAddr, Received) {
    let spans: Received = Arc::default();
    let keep = spans.clone();
    let app = axum::Router::new()
        .route(
            "/v1/traces",
            axum::routing::post(move |body: axum::body::Bytes| {
                let keep = keep.clone();
                async move {
                    let request = ExportTraceServiceRequest::decode(body).expect("OTLP protobuf");
                    let mut keep = keep.lock().unwrap();
                    for resource in request.resource_spans {
                        for scope in resource.scope_spans {
                            keep.extend(scope.spans);
                        }
                    }
                    StatusCode::OK
                }
            }),
        )
        .route(
            "/v1/metrics",
            axum::routing::post(|| async { StatusCode::OK }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (addr, spans)
}

fn attribute(span: &Span, key: &str) -> Option<String> {
    span.attributes
        .iter()
        .find(|a| a.key == key)
        .and_then(|a| a.value.as_ref()?.value.clone())
        .map(|v| match v {
            AnyValue::StringValue(s) => s,
            other => format!("{other:?}"),
        })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_otlp_receiver_gets_the_call_span_continuing_the_callers_trace() {
    let (collector, spans) = receiver().await;
    // The only test of this binary that reads the variable.
    std::env::set_var(OTEL_EXPORTER_OTLP_ENDPOINT, format!("http://{collector}"));
    let telemetry = Telemetry::from_env("telemetry-test").expect("OTLP exporters");
    assert!(telemetry.exports_otlp());
    let router = router()
        .security(Some(SECURITY))
        .authenticator(StaticTokens::new().token("SECRET-token", Principal::new("alice")));
    let addr = start(HttpServer::new(router).telemetry(telemetry.clone())).await;
    let mut client = Client::bearer(addr, "SECRET-token");
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
    let parent_id = "00f067aa0ba902b7";
    let reply = client
        .post(
            json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "fine", "arguments": {"note": "ARGVALUE-91"},
            "_meta": {"traceparent": format!("00-{trace_id}-{parent_id}-01")}}}),
        )
        .await;
    assert_eq!(reply.answer(7)["result"]["content"][0]["text"], "fine");
    let broken = client.call_tool(8, "broken").await.answer(8);
    assert_eq!(broken["result"]["isError"], true);

    // The batch processor exports on a flush (it blocks: off the runtime's threads).
    let flushing = telemetry.clone();
    tokio::task::spawn_blocking(move || flushing.force_flush())
        .await
        .unwrap()
        .expect("exported");
    let spans = spans.lock().unwrap().clone();
    let call = spans
        .iter()
        .find(|s| s.name == "tools/call fine")
        .unwrap_or_else(|| panic!("no tools/call span in {spans:#?}"));
    assert_eq!(hex(&call.trace_id), trace_id);
    assert_eq!(hex(&call.parent_span_id), parent_id);
    // SPAN_KIND_SERVER.
    assert_eq!(call.kind, 2);
    let session = client.session.clone().unwrap();
    assert_eq!(
        attribute(call, "mcp.method.name").as_deref(),
        Some("tools/call")
    );
    assert_eq!(attribute(call, "gen_ai.tool.name").as_deref(), Some("fine"));
    assert_eq!(attribute(call, "mcp.session.id"), Some(session));
    assert_eq!(attribute(call, "jsonrpc.request.id").as_deref(), Some("7"));
    assert_eq!(attribute(call, "user.id").as_deref(), Some("alice"));
    assert_eq!(attribute(call, "network.transport").as_deref(), Some("tcp"));
    assert_eq!(attribute(call, "error.type"), None);
    // The failed call: its own trace (no traceparent), an error status.
    let failed = spans
        .iter()
        .find(|s| s.name == "tools/call broken")
        .unwrap_or_else(|| panic!("no failed call span in {spans:#?}"));
    assert_ne!(hex(&failed.trace_id), trace_id);
    assert!(failed.parent_span_id.is_empty());
    assert_eq!(
        attribute(failed, "error.type").as_deref(),
        Some("tool_error")
    );
    // STATUS_CODE_ERROR.
    assert_eq!(failed.status.as_ref().map(|s| s.code), Some(2));
    assert!(spans.iter().any(|s| s.name == "initialize"));
    let everything = format!("{spans:?}");
    assert!(!everything.contains("ARGVALUE") && !everything.contains("SECRET"));
    telemetry.shutdown().ok();
}
