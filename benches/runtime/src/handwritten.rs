//! The greeter written by hand with rmcp's `#[tool]` macros: what a server without
//! mcpdesc looks like.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::schemars::{self, JsonSchema};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use serde::{Deserialize, Serialize};

/// Arguments of `greet`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GreetInput {
    /// Who to greet.
    pub name: String,
    /// End with an exclamation mark.
    #[serde(default)]
    pub excited: Option<bool>,
}

/// Structured output of `greet`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct GreetOutput {
    /// The greeting.
    pub greeting: String,
    /// Its length in characters.
    pub length: u64,
}

/// The hand-written server, as rmcp's documentation writes a tools-only server.
#[derive(Debug, Clone, Default)]
pub struct Greeter;

#[tool_router(server_handler)]
impl Greeter {
    /// Greets someone by name.
    #[tool(name = "greet", description = "Greets someone by name.")]
    fn greet(&self, Parameters(input): Parameters<GreetInput>) -> Json<GreetOutput> {
        let (greeting, length) = crate::greeting(&input.name, input.excited.unwrap_or(false));
        Json(GreetOutput { greeting, length })
    }
}

/// The rmcp service a client talks to.
pub fn server() -> Greeter {
    Greeter
}

/// The same server keeping its `ToolRouter` in a field, built once: rmcp's default
/// (`#[tool_handler]` without `router = ...`) builds it again for every request.
#[derive(Debug, Clone)]
pub struct StoredGreeter {
    tool_router: ToolRouter<StoredGreeter>,
}

#[tool_router]
impl StoredGreeter {
    /// Greets someone by name.
    #[tool(name = "greet", description = "Greets someone by name.")]
    fn greet(&self, Parameters(input): Parameters<GreetInput>) -> Json<GreetOutput> {
        let (greeting, length) = crate::greeting(&input.name, input.excited.unwrap_or(false));
        Json(GreetOutput { greeting, length })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for StoredGreeter {}

/// The hand-written server with its router built once.
pub fn stored_server() -> StoredGreeter {
    StoredGreeter {
        tool_router: StoredGreeter::tool_router(),
    }
}
