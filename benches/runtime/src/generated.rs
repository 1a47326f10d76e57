//! The greeter served by the router mcpdesc generates (`build.rs`).

/// The module generated from `greeter.mcpdesc.json`.
#[allow(missing_docs)]
pub mod contract {
    mcpdesc::include_generated!("greeter");
}

use contract::types::{GreetInput, GreetOutput};
use mcpdesc::{Context, ToolError};

/// The implementation: one trait method around [`crate::greeting`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Greeter;

impl contract::Greet for Greeter {
    async fn greet(&self, input: GreetInput, _cx: Context) -> Result<GreetOutput, ToolError> {
        let (greeting, length) = crate::greeting(&input.name, input.excited.unwrap_or(false));
        Ok(GreetOutput { greeting, length })
    }
}

/// The generated router over [`Greeter`].
pub fn router() -> mcpdesc::Router {
    contract::router(Greeter)
}

/// The rmcp service a client talks to (what `mcpdesc::serve_stdio` serves).
pub fn server() -> mcpdesc::McpServer {
    mcpdesc::McpServer::new(router()).trusted_transport()
}

/// The same greeter behind a declared bearer scheme (`greeter-secured.mcpdesc.json`):
/// what the HTTP benchmark's security gate checks.
pub mod secured {
    /// The module generated from `greeter-secured.mcpdesc.json`.
    #[allow(missing_docs)]
    pub mod contract {
        mcpdesc::include_generated!("greeter-secured");
    }

    use contract::types::{GreetInput, GreetOutput};
    use mcpdesc::auth::{AuthError, AuthRequest, Principal};
    use mcpdesc::{Context, ToolError};

    /// The implementation: the same trait method, and an authenticator that accepts
    /// any bearer token (so the gate's own work is measured, not a token check).
    #[derive(Debug, Clone, Copy, Default)]
    pub struct Greeter;

    impl contract::Greet for Greeter {
        async fn greet(&self, input: GreetInput, _cx: Context) -> Result<GreetOutput, ToolError> {
            let (greeting, length) = crate::greeting(&input.name, input.excited.unwrap_or(false));
            Ok(GreetOutput { greeting, length })
        }
    }

    impl contract::Authenticator for Greeter {
        async fn authenticate_bench_token(
            &self,
            token: &str,
            _request: &AuthRequest,
        ) -> Result<Principal, AuthError> {
            Ok(Principal::new(token))
        }
    }

    /// The generated router over [`Greeter`].
    pub fn router() -> mcpdesc::Router {
        contract::router(Greeter)
    }
}
