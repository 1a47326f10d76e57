//! Implementation tests: an example replayed against the implementation, through the
//! real [`Router`] (argument validation, version projection, result shaping), and the
//! answer compared with the example's result.
//!
//! The generated `#[cfg(test)]` module calls these checks when the description is
//! generated with a test server (`Builder::test_server("crate::Greeter::for_examples()")`,
//! the macro key `test_server = "..."`, `mcpdesc generate --test-server EXPR`): one test
//! per Tool Example, Tool Interaction Example, Prompt, Resource and Resource Template
//! Example and completion example, each on a fresh server built by that expression:
//!
//! ```text
//! #[test]
//! fn analyze_game_example_scholars_mate() {
//!     // the type checks of the example, as without a test server, then:
//!     if let Err(e) = ::mcpdesc::implementation::check_example(
//!         &super::router(crate::ChessServer::new()),
//!         &examples::analyze_game::ALL.tool,
//!         &examples::analyze_game::ALL.examples[1usize],
//!         ::mcpdesc::implementation::Compare::Exact,
//!     ) { panic!("{e}") }
//! }
//! ```
//!
//! A failure names the tool (or prompt, resource, ...), the example, the MCP version the
//! call ran in and the JSON pointer of the first difference, inside the result and in
//! the description, with the expected and the actual value:
//!
//! ```text
//! tool `get_player_rating`, example `new-player-blitz` (MCP 2025-11-25): the
//! implementation's result differs from the example at /content/0/text
//! (/tools/1/examples/new-player-blitz/result/content/0/text)
//!     expected: "fictional-player-1 (blitz): 1500, 0 games"
//!     actual:   "fictional-player-1 (blitz): 1200, 0 games"
//! ```
//!
//! # What is compared
//!
//! Each call runs in the latest protocol version of the declaration's scope (an
//! interaction example: in each version of it, see below), and the
//! result is compared as the client would receive it in that version
//! ([`ToolResult::to_wire`] and the other results' wire
//! forms), without the wire-only members an example does not carry (`resultType:
//! "complete"` of MCP 2026-07-28, `isError: false`).
//!
//! - [`Compare::Exact`] (the default): the whole result, text included, as JSON data
//!   ([`first_difference`]); a `text` that holds a JSON object or array on both sides
//!   is compared as JSON, as `mcpdesc check` compares it (member order and spacing
//!   aside), and a failure's message notes each such text, saying when it differs
//!   only in formatting.
//! - [`Compare::Shape`], chosen per example with the extension `"x-mcpdesc-compare":
//!   "shape"` on the example object, for examples whose text is illustrative: for a
//!   tool, `isError`, the number and kinds of content blocks, whether there is
//!   `structuredContent` and, for a tool with `outputSchema`, that it is valid against
//!   it; for a prompt, the messages' roles and content kinds; for a resource or
//!   template, the contents' URIs, MIME types and whether each is text or a blob; for a
//!   completion, the number of values.
//!
//! An Interaction Example is replayed with a [`ScriptedClient`] of its steps, as the
//! example mock's tests do, in every version of the tool's scope (a fresh server per
//! version): every elicitation, sampling or roots request the implementation makes
//! must match the next step, each is answered with the step's response, and every
//! step must be used.
//! In MCP 2026-07-28 the requests go through input-required rounds, the handler
//! replayed as `McpServer` replays it.
//!
//! [`Router`]: crate::server::router::Router
//! [`ToolResult::to_wire`]: crate::protocol::result::ToolResult::to_wire
//! [`ScriptedClient`]: crate::examples::scripted::ScriptedClient

mod checks;
mod compare;

pub use checks::{
    check_completion_example, check_example, check_interaction_example, check_prompt_example,
    check_resource_example, check_template_example, run,
};
pub use compare::Compare;

pub use crate::examples::difference::{first_difference, Difference};
