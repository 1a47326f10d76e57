//! `mcpdesc check`: a live MCP server, in any language, against its MCP Description.
//!
//! The check connects as a client ([`mcpdesc::client::Session`], raw JSON results) and
//! reports [`Finding`]s:
//!
//! - **listings** (always): `tools/list`, and `prompts/list`, `resources/list`,
//!   `resources/templates/list` when the description declares such primitives, are
//!   compared as JSON values (key order aside) with the description's projection for
//!   the negotiated version, the one a server generated from it lists (`missing`,
//!   `undeclared`, `duplicate`, `input-schema-differs`, `output-schema-differs`,
//!   `member-differs`);
//! - **examples** ([`Config::examples`]): each selected Tool Example's input is called,
//!   and each selected prompt, resource, resource template and completion example is
//!   requested. A JSON-RPC error on a schema-valid input (`example-error`) and a result
//!   that breaks the result rules (`result-malformed`, `structured-content-missing`,
//!   `structured-content-invalid`) are failures; a result that differs from the
//!   example's (`example-differs`) is a warning, a failure under [`Config::strict`].
//!   Each selected Tool Interaction Example is called too, the server's client-input
//!   requests answered from its steps (`interaction.rs`): a request that does not
//!   match the next step, or a step never requested, is an `interaction-differs`
//!   failure naming the step; the session must declare the capabilities of
//!   [`client_capabilities`];
//! - **generated inputs** ([`Config::generate`]): per selected tool,
//!   [`Config::cases`] inputs from its `inputSchema` (see [`generate`]), seeded by
//!   [`Config::seed`]: a valid one must not get a JSON-RPC error
//!   (`valid-input-rejected`), an invalid one must get `isError` or -32602
//!   (`invalid-input-accepted`, `invalid-input-error`; the wrong values include those
//!   a lax parser coerces, `"7"` for an integer, `"yes"` for a boolean, and the
//!   message names the argument and the value), results keep the result rules; a
//!   tool none of whose valid inputs succeeded is a `success-never-exercised`
//!   warning; a schema the generator cannot serve is a `skipped` finding; selected
//!   prompts get generated `prompts/get` requests (`generated_prompts.rs`: results keep
//!   the prompt result rules, a request without a required argument that succeeds is
//!   a `prompt-arguments-accepted` warning), and selected resource templates generated
//!   `resources/read` requests of URIs built from random variable values
//!   (`generated_templates.rs`: results keep the resource result rules); those of
//!   them with completion examples get generated `completion/complete` requests
//!   (`generated_completions.rs`: values within MCP's limits);
//! - every call must answer within [`Config::call_timeout`] (`no-answer`) and the
//!   server must stay alive (`server-exited`, after which nothing more is sent); a call
//!   refused with HTTP 401 is `unauthorized`, with 403 `forbidden`;
//! - examples run in [`EXAMPLE_ORDER`], per protocol version: those that only read
//!   (prompts, resources, templates, completions, tools annotated `readOnlyHint:
//!   true`) first, then the other tools' and last those of tools stating
//!   `destructiveHint: true`, each in description order, an example with
//!   `x-mcpdesc-after: ["NAME/EXAMPLE", ...]` after the examples it names (see
//!   [`mcpdesc_description::example_order`]).
//!
//! Nothing is called unless selected: MCP Description §9.3 forbids contract tooling to
//! execute a live tool merely because an example exists. The [`Report`] lists every
//! call made.

mod config;
pub mod expected;
pub mod finding;
pub mod generate;
mod generated;
mod generated_completions;
mod generated_prompts;
mod generated_templates;
mod interaction;
pub mod listing;
mod replay;
pub mod report;
pub mod results;
pub mod rng;
mod run;
pub mod select;
mod sequence;

pub use config::{Config, DEFAULT_CALL_TIMEOUT};
pub use expected::{described_versions, Expected};
pub use finding::{Finding, Primitive, Severity};
pub use interaction::client_capabilities;
pub use report::{Call, Report, EXAMPLE_ORDER};
pub use run::check;
pub use select::Selection;
