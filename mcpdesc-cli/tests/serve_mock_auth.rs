//! `mcpdesc serve-mock FILE --http ADDR --token TOKEN:SCOPE,SCOPE` over real HTTP
//! (the binary on a loopback port, a hyper client): for a description with root
//! `oauth2` scope `games:read` and a tool needing `games:write`, no token gets 401
//! with `resource_metadata`, an unknown token 401, a read token runs the read tool
//! and is refused the write tool, a token with both scopes runs both, and the
//! metadata lists both scopes. No token value ever appears on the server's stderr.

use std::path::{Path, PathBuf};
use std::process::Command;

use hyper::StatusCode;
use serde_json::json;

#[path = "../../tests/e2e/harness.rs"]
mod harness;
#[path = "../../mcpdesc/tests/support/wire.rs"]
mod wire;

use harness::HttpServerProcess;
use wire::{send, Client};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The address of the endpoint URL `http://HOST:PORT/mcp`.
fn addr_of(url: &str) -> std::net::SocketAddr {
    url.trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap()
}

fn serve(path: &Path, tokens: &[&str]) -> HttpServerProcess {
    serve_with(path, tokens, &[])
}

fn serve_with(path: &Path, tokens: &[&str], extra: &[&str]) -> HttpServerProcess {
    let mut args = vec![
        "serve-mock".to_owned(),
        path.display().to_string(),
        "--http".to_owned(),
        "127.0.0.1:0".to_owned(),
    ];
    for token in tokens {
        args.push("--token".into());
        args.push((*token).into());
    }
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    HttpServerProcess::start(env!("CARGO_BIN_EXE_mcpdesc"), &args)
}

#[tokio::test]
async fn serve_mock_enforces_the_descriptions_security_with_test_tokens() {
    let server = serve(
        &fixture("games-oauth.mcpdesc.json"),
        &["reader-7c1:games:read", "both-2f9:games:read,games:write"],
    );
    let addr = addr_of(&server.url);
    let metadata_url = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");

    // No token.
    let refused = Client::new(addr).initialize().await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refused.challenges(),
        [format!(
            r#"Bearer scope="games:read", resource_metadata="{metadata_url}""#
        )]
    );
    // An unknown token.
    let unknown = Client::bearer(addr, "guess-000").initialize().await;
    assert_eq!(unknown.status, StatusCode::UNAUTHORIZED);
    assert!(unknown.challenges()[0].contains(r#"error="invalid_token""#));

    // The read token: the read tool runs, the write tool is refused.
    let mut reader = Client::bearer(addr, "reader-7c1");
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    assert_eq!(reader.tool_text(1, "list_games").await, "2 games");
    let write = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "record_game", "arguments": {"pgn": "1. e4 e5 2. Qh5"}}});
    let forbidden = reader.post(write.clone()).await;
    assert_eq!(forbidden.status, StatusCode::FORBIDDEN);
    assert_eq!(
        forbidden.challenges(),
        [format!(
            r#"Bearer error="insufficient_scope", scope="games:write", resource_metadata="{metadata_url}""#
        )]
    );
    assert!(!forbidden.body.contains("recorded"), "{}", forbidden.body);

    // Both scopes: both tools run.
    let mut both = Client::bearer(addr, "both-2f9");
    assert_eq!(both.initialize().await.status, StatusCode::OK);
    assert_eq!(both.tool_text(3, "list_games").await, "2 games");
    let recorded = both.post(write).await.answer(2);
    assert_eq!(
        recorded["result"]["content"][0]["text"], "recorded",
        "{recorded}"
    );

    // The metadata, at both well-known paths.
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let metadata = send(addr, "GET", path, &[], Vec::new()).await.json();
        assert_eq!(metadata["resource"], format!("http://{addr}/mcp"));
        assert_eq!(
            metadata["authorization_servers"],
            json!(["https://auth.games.example"])
        );
        assert_eq!(
            metadata["scopes_supported"],
            json!(["games:read", "games:write"])
        );
    }

    // Bad input: the server neither panics nor runs anything, and keeps serving.
    let malformed = Client::new(addr)
        .header("authorization", "Bearer reader-7c1 trailing")
        .initialize()
        .await;
    assert_eq!(malformed.status, StatusCode::UNAUTHORIZED);
    let in_query = Client::new(addr)
        .path("/mcp?access_token=reader-7c1")
        .initialize()
        .await;
    assert_eq!(in_query.status, StatusCode::UNAUTHORIZED);
    let huge = Client::new(addr)
        .header(
            "authorization",
            &format!("Bearer {}", "x".repeat(64 * 1024)),
        )
        .initialize()
        .await;
    assert_eq!(huge.status, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
    assert_eq!(
        Client::bearer(addr, "both-2f9").initialize().await.status,
        StatusCode::OK
    );

    let stderr = server.stderr();
    assert!(
        stderr.contains("enforcing the description's security with 2 static token(s)"),
        "{stderr}"
    );
    for secret in ["reader-7c1", "both-2f9", "guess-000"] {
        assert!(
            !stderr.contains(secret),
            "a token reached stderr:\n{stderr}"
        );
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[tokio::test]
async fn serve_mock_tokens_for_api_keys_basic_and_public_tools() {
    // The generator's security fixture: a public tool, an API key and HTTP Basic on
    // the partners transport (not the served one: the first streamable-http entry,
    // which inherits the root's oauth2 requirement).
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/generator/security.mcpdesc.json");
    let server = serve(&path, &["partner-k:games:read"]);
    let addr = addr_of(&server.url);
    let mut anonymous = Client::new(addr);
    assert_eq!(anonymous.initialize().await.status, StatusCode::OK);
    // `server_status` has `security: []`: public. (It has no example: the mock's
    // answer is an error result naming that, not a refusal.)
    let status = anonymous.call_tool(1, "server_status").await;
    assert_eq!(status.status, StatusCode::OK);
    assert_eq!(
        anonymous.call_tool(2, "list_games").await.status,
        StatusCode::UNAUTHORIZED
    );
    // The resource with `[{}, ...]` is readable anonymously.
    let read = json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "games://leaderboard"}});
    assert_eq!(anonymous.post(read).await.status, StatusCode::OK);
    // The token as a bearer token.
    let mut bearer = Client::bearer(addr, "partner-k");
    assert_eq!(bearer.initialize().await.status, StatusCode::OK);
    assert_eq!(bearer.tool_text(4, "list_games").await, "2 games");
    assert!(!server.stderr().contains("partner-k"));

    // Served as the partners transport: an API key (header or query) or HTTP Basic.
    let partners = serve_with(
        &path,
        &["partner-k"],
        &["--transport", "https://partners.example.com/mcp"],
    );
    let addr = addr_of(&partners.url);
    let refused = Client::new(addr).call_tool(1, "list_games").await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        refused.challenges(),
        [
            r#"ApiKey realm="generator-security", in="header", name="X-API-Key""#,
            r#"ApiKey realm="generator-security", in="query", name="api_key""#,
            r#"Basic realm="generator-security", charset="UTF-8""#,
        ]
    );
    // "ana:partner-k"
    for client in [
        Client::new(addr).header("x-api-key", "partner-k"),
        Client::new(addr).path("/mcp?api_key=partner-k"),
        Client::new(addr).header("authorization", "Basic YW5hOnBhcnRuZXItaw=="),
    ] {
        let mut client = client;
        assert_eq!(client.initialize().await.status, StatusCode::OK);
        assert_eq!(client.tool_text(5, "list_games").await, "2 games");
    }
    let wrong = Client::new(addr)
        .header("x-api-key", "nope")
        .initialize()
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(!partners.stderr().contains("partner-k"));
}

/// `DELETE` of `client`'s session with its credentials.
async fn delete(client: &Client) -> wire::Reply {
    let mut headers = client.headers.clone();
    headers.push(("mcp-session-id".into(), client.session.clone().unwrap()));
    headers.push(("mcp-protocol-version".into(), wire::VERSION.into()));
    send(client.addr, "DELETE", "/mcp", &headers, Vec::new()).await
}

#[tokio::test]
async fn serve_mock_binds_each_session_to_its_token() {
    let server = serve(
        &fixture("games-oauth.mcpdesc.json"),
        &["first-a1:games:read", "second-b2:games:read"],
    );
    let addr = addr_of(&server.url);
    let mut first = Client::bearer(addr, "first-a1");
    assert_eq!(first.initialize().await.status, StatusCode::OK);
    let mut second = Client::bearer(addr, "second-b2");
    second.session = first.session.clone();
    let mut nobody = Client::bearer(addr, "second-b2");
    nobody.session = Some("0b5e2f4c-8f0e-4a8b-9c11-6e1f7f3b2d90".into());

    // The second token on the first's session: the answer to an unknown session.
    let refused = second.call_tool(1, "list_games").await;
    let unknown = nobody.call_tool(1, "list_games").await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{refused:?}");
    assert_eq!(
        (refused.status, &refused.body),
        (unknown.status, &unknown.body)
    );
    // Nor can it end the session.
    let refused = delete(&second).await;
    assert_eq!(refused.status, StatusCode::NOT_FOUND, "{refused:?}");
    assert_eq!(refused.body, delete(&nobody).await.body);
    assert_eq!(first.tool_text(2, "list_games").await, "2 games");
    // Its owner can: 204, then 404.
    assert_eq!(delete(&first).await.status, StatusCode::NO_CONTENT);
    assert_eq!(delete(&first).await.status, StatusCode::NOT_FOUND);
}

#[test]
fn token_needs_http() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcpdesc"))
        .args(["serve-mock"])
        .arg(fixture("games-oauth.mcpdesc.json"))
        .args(["--token", "t:games:read"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--http"), "{stderr}");
}

/// The official TypeScript client (`tests/e2e/auth.mjs`) with `Authorization`
/// headers against `serve-mock --token`.
#[test]
fn the_typescript_client_with_authorization_headers() {
    if !harness::client_ready(
        "mcpdesc-cli/serve_mock_auth::the_typescript_client_with_authorization_headers",
    ) {
        return;
    }
    let server = serve(
        &fixture("games-oauth.mcpdesc.json"),
        &["reader-7c1:games:read", "both-2f9:games:read,games:write"],
    );
    let addr = addr_of(&server.url);
    let write = json!({"tool": "record_game", "arguments": {"pgn": "1. e4 e5 2. Qh5"}});
    let plan = json!({
        "url": server.url,
        "resourceMetadataUrl": format!("http://{addr}/.well-known/oauth-protected-resource/mcp"),
        "resourceMetadata": {
            "resource": format!("http://{addr}/mcp"),
            "authorization_servers": ["https://auth.games.example"],
            "scopes_supported": ["games:read", "games:write"],
            "bearer_methods_supported": ["header"],
            "resource_name": "games"
        },
        "clients": [
            {"label": "no token", "token": null, "connect": 401, "calls": []},
            {"label": "unknown token", "token": "guess-000", "connect": 401, "calls": []},
            {"label": "read token", "token": "reader-7c1", "connect": "ok", "calls": [
                {"tool": "list_games", "text": "2 games"},
                {"tool": write["tool"], "arguments": write["arguments"], "status": 403}
            ]},
            {"label": "both scopes", "token": "both-2f9", "connect": "ok", "calls": [
                {"tool": "list_games", "text": "2 games"},
                {"tool": write["tool"], "arguments": write["arguments"], "text": "recorded"}
            ]}
        ]
    });
    let out = harness::run_script("auth.mjs", "serve-mock-auth", &plan);
    assert!(out.contains("11 passed, 0 failed"), "{out}");
}

/// `mcpdesc check ARGS...` in process: exit code, stdout, stderr.
fn check(args: &[&str]) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = ["mcpdesc", "check"].into_iter().chain(args.iter().copied());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// `check` against a secured server: without credentials the connection is refused
/// (exit 2, naming `--header`); with a token that lacks a tool's scope, that call is a
/// `forbidden` finding naming the scope; a 401 on a call is `unauthorized`.
#[test]
fn check_reports_refusals_as_unauthorized_and_forbidden() {
    let games = fixture("games-oauth.mcpdesc.json");
    let games = games.to_str().unwrap();
    let server = serve(
        &fixture("games-oauth.mcpdesc.json"),
        &["reader-7c1:games:read"],
    );
    let (code, out, err) = check(&[games, "--url", &server.url]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("401 Unauthorized"), "{err}");
    assert!(err.contains("--header 'Authorization: Bearer …'"), "{err}");
    let (code, out, err) = check(&[
        games,
        "--url",
        &server.url,
        "--header",
        "Authorization: Bearer reader-7c1",
        "--examples",
        "all",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let failures: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "failure")
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["tool"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(failures, [("forbidden", "record_game")], "{out}");
    let message = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "forbidden")
        .unwrap()["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("403 Forbidden: it requires the scope games:write"),
        "{message}"
    );
    // A public primitive's listing lets a client in without credentials; a call of a
    // secured tool is then refused with 401.
    let open = fixture("open-listing.mcpdesc.json");
    let server = serve(&open, &["reader-7c1:games:read"]);
    let (code, out, err) = check(&[
        open.to_str().unwrap(),
        "--url",
        &server.url,
        "--examples",
        "all",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("failure[unauthorized]: tool `list_games`, example `all`"),
        "{out}"
    );
    assert!(out.contains("--header 'Authorization: Bearer …'"), "{out}");
}

/// The client session and the typed client see a refusal as a typed error with the
/// parsed challenge: 401 on connect, 403 with the required scope on a call.
#[tokio::test]
async fn refusals_are_typed_errors_with_the_parsed_challenge() {
    use mcpdesc::client::{ConnectError, Options, RequestError};
    let server = serve(
        &fixture("games-oauth.mcpdesc.json"),
        &["reader-7c1:games:read"],
    );
    let Err(refused) = Options::new().http(&server.url).await else {
        panic!("connected without credentials");
    };
    let ConnectError::Unauthorized { challenges, .. } = &refused else {
        panic!("not Unauthorized: {refused}");
    };
    assert_eq!(challenges[0].scheme, "Bearer");
    assert_eq!(challenges[0].scopes(), ["games:read"]);
    assert!(challenges[0]
        .param("resource_metadata")
        .is_some_and(|m| m.ends_with("/.well-known/oauth-protected-resource/mcp")));
    let session = Options::new()
        .header("Authorization", "Bearer reader-7c1")
        .http(&server.url)
        .await
        .unwrap();
    let error = session
        .request(
            "tools/call",
            Some(json!({"name": "record_game", "arguments": {"pgn": "1. e4"}})),
        )
        .await
        .unwrap_err();
    let RequestError::Forbidden { scopes, .. } = &error else {
        panic!("not Forbidden: {error}");
    };
    assert_eq!(scopes, &["games:write"]);
    // The typed client's call gets the same refusal, typed.
    const RECORD_GAME: mcpdesc::ToolSpec = mcpdesc::ToolSpec::new(
        "record_game",
        &[mcpdesc::ProtocolVersion::V2025_11_25],
        r#"{"name": "record_game", "inputSchema": {"type": "object", "properties": {"pgn": {"type": "string"}}, "required": ["pgn"]}}"#,
    );
    let client = mcpdesc::client::TypedClient::new(session);
    let error = client
        .call_tool(&RECORD_GAME, json!({"pgn": "1. e4"}))
        .await
        .unwrap_err();
    match &error {
        mcpdesc::CallError::Forbidden {
            name,
            scopes,
            challenges,
        } => {
            assert_eq!(name, "record_game");
            assert_eq!(scopes, &["games:write"]);
            assert_eq!(challenges[0].param("error"), Some("insufficient_scope"));
        }
        other => panic!("not Forbidden: {other}"),
    }
    assert!(
        error.to_string().starts_with(
            "`record_game` was refused with 403 Forbidden: it requires the scope games:write"
        ),
        "{error}"
    );
    client.session().close().await;
}
