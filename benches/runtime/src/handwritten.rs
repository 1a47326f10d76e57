//! The greeter written by hand with rmcp's `#[tool]` macros: what a server without
//! mcpdesc looks like.

use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::schemars::{self, JsonSchema};
use rmcp::{tool, tool_router};
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

/// The hand-written server.
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
