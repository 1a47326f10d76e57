//! A server over streamable HTTP (`--url`).

use crate::harness;
use crate::support::{check, chess, MCPDESC};

#[test]
fn over_streamable_http() {
    let server = harness::HttpServerProcess::start(
        MCPDESC,
        &[
            "serve-mock",
            chess().to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ],
    );
    let chess = chess();
    let (code, out, err) = check(&[
        chess.to_str().unwrap(),
        "--url",
        &server.url,
        "--examples",
        "all",
        "--strict",
        "--header",
        "X-Trace: check",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("tools/call analyze_game [scholars-mate]: result"),
        "{out}"
    );
    // No TLS without the `https` feature: an https:// URL cannot be checked, and says
    // why. With it the connection is refused (nothing listens there): exit 2 as well.
    let (code, _, err) = check(&[chess.to_str().unwrap(), "--url", "https://127.0.0.1:9/mcp"]);
    assert_eq!(code, 2);
    if cfg!(not(feature = "https")) {
        assert!(err.contains("needs TLS"), "{err}");
    }
}
