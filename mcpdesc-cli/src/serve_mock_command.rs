//! `mcpdesc serve-mock`: the description's mock served on stdio or HTTP, with the
//! status lines and exit codes of the command (the mock itself: `serve_mock.rs`).

use std::io::Write;

use mcpdesc_codegen::ProtocolVersion;

use crate::exit::{EXIT_INVALID, EXIT_OK, EXIT_USAGE};
use crate::load::load_reporting;
use crate::serve_mock as mock;

/// The security options of `serve-mock` (HTTP only).
#[derive(Debug, Clone, Copy, Default)]
pub struct MockSecurity<'a> {
    /// `--token`: the static test credentials; none: security is not enforced.
    pub tokens: &'a [mock::MockToken],
    /// `--transport`: the `url` of the description's HTTP transport served.
    pub transport: Option<&'a str>,
    /// `--jwks`, `--issuer`, `--audience`: JWT bearer tokens verified against a
    /// JWKS instead of static tokens.
    pub jwt: Option<&'a mock::MockJwt>,
}

/// `mcpdesc serve-mock`: validates the description, then serves its mock on stdio,
/// or over streamable HTTP at `http://ADDR/mcp` when `http` is `Some(ADDR)`,
/// enforcing the description's security with `security.tokens` when there are any.
pub fn serve_mock(
    file: &std::path::Path,
    version: Option<ProtocolVersion>,
    selections: &[mcpdesc::mock::Selection],
    http: Option<&str>,
    security: &MockSecurity<'_>,
    err: &mut dyn Write,
) -> u8 {
    let tokens = security.tokens;
    let Some(desc) = load_reporting(file, err) else {
        return EXIT_USAGE;
    };
    let router = match mock::mock_router(&desc, version, selections) {
        Ok(router) => router,
        Err(e @ mock::MockError::Selection(_)) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_USAGE;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_INVALID;
        }
    };
    let declares = router.declares_requirements();
    let credentials = !tokens.is_empty() || security.jwt.is_some();
    let router = match (credentials, declares) {
        (true, true) => match security.jwt {
            Some(jwt) => mock::with_jwt(router, jwt),
            None => mock::with_tokens(router, tokens),
        },
        (true, false) => {
            let given = if security.jwt.is_some() {
                "--jwks"
            } else {
                "--token"
            };
            let _ = writeln!(
                err,
                "warning: {given} given, but {} declares no security requirement: nothing is enforced",
                desc.name
            );
            router
        }
        (false, true) if http.is_some() => {
            let _ = writeln!(
                err,
                "note: {} declares security requirements; the mock does not enforce them without --token TOKEN:SCOPE,SCOPE or --jwks URL --issuer ISS",
                desc.name
            );
            router
        }
        (false, _) => router,
    };
    let enforcing = credentials && declares;
    let outcome = match http {
        Some(addr) => mock::serve_http(router, addr, security.transport, |url| {
            let _ = writeln!(
                err,
                "mcpdesc: serving {} as a mock MCP server at {url} (replays example results; not live behaviour)",
                desc.name
            );
            if enforcing {
                let with = match security.jwt {
                    Some(jwt) => format!(
                        "JWT bearer tokens of {} (keys: {}; audience: {})",
                        jwt.issuer,
                        jwt.jwks,
                        jwt.audience.as_deref().unwrap_or(url)
                    ),
                    None => format!("{} static token(s)", tokens.len()),
                };
                let _ = writeln!(
                    err,
                    "mcpdesc: enforcing the description's security with {with}; Protected Resource Metadata at {}",
                    mcpdesc::auth::metadata::metadata_url(url).unwrap_or_default()
                );
            }
            let _ = err.flush();
        }),
        None => {
            let _ = writeln!(
                err,
                "mcpdesc: serving {} as a mock MCP server on stdio (replays example results; not live behaviour)",
                desc.name
            );
            let _ = err.flush();
            mock::serve_stdio(router).map_err(|e| format!("mock session: {e}"))
        }
    };
    match outcome {
        Ok(()) => EXIT_OK,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            EXIT_INVALID
        }
    }
}
