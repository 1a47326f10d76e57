//! `chess-server --http 127.0.0.1:0 --rate-limit 50` under a burst: one client
//! (127.0.0.1) sending 150 requests as fast as it can gets `429 Too Many Requests`
//! with `Retry-After` past its allowance, while another client (127.0.0.2) is served.
//! A raw HTTP/1.1 client on `std::net`, each request on its own connection.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

/// `POST /mcp` with a JSON-RPC `ping` from `source` (a loopback address, the
/// client's identity); the raw response.
fn ping_from(source: &str, server: SocketAddr) -> String {
    let mut stream = connect_from(source, server);
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {server}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

/// A connection to `server` from the address `source`, through tokio's socket
/// builder (std cannot bind a client socket before connecting).
fn connect_from(source: &str, server: SocketAddr) -> TcpStream {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    let runtime = RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .unwrap()
    });
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        let stream = socket.connect(server).await.unwrap();
        let stream = stream.into_std().unwrap();
        stream.set_nonblocking(false).unwrap();
        stream
    })
}

fn status(response: &str) -> u16 {
    response[9..12].parse().unwrap()
}

fn retry_after(response: &str) -> Option<u64> {
    response.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().parse().ok())
            .flatten()
    })
}

#[test]
fn a_burst_over_the_rate_limit_gets_429_and_another_client_does_not() {
    let server = harness::HttpServerProcess::start(
        env!("CARGO_BIN_EXE_chess-server"),
        &["--http", "127.0.0.1:0", "--rate-limit", "50"],
    );
    let addr: SocketAddr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap();
    let responses: Vec<String> = (0..150).map(|_| ping_from("127.0.0.1", addr)).collect();
    let statuses: Vec<u16> = responses.iter().map(|r| status(r)).collect();
    // The first 50 fit the burst allowance.
    assert!(statuses[..50].iter().all(|&s| s != 429), "{statuses:?}");
    let limited: Vec<&String> = responses.iter().filter(|r| status(r) == 429).collect();
    assert!(!limited.is_empty(), "no 429 in {statuses:?}");
    for response in limited {
        assert_eq!(retry_after(response), Some(1), "{response}");
    }
    // Another client is not limited.
    let other = ping_from("127.0.0.2", addr);
    assert_ne!(status(&other), 429, "{other}");
}
