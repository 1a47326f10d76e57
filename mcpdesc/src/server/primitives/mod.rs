//! Prompts, resources, resource templates and completions in the [`Router`]:
//! registration by generated code, listing per protocol version, dispatch of
//! `prompts/get`, `resources/read` and `completion/complete`, and the server
//! capabilities they bring.
//!
//! # Requests and their errors
//!
//! | request | checked by the router before the handler runs | error |
//! |---|---|---|
//! | `prompts/get` | the prompt exists in the version; every `required` argument is given; every argument is a string | -32602 |
//! | `resources/read` | the URI is a resource of the version, else an expansion of one of its templates (static resources first, then templates in registration order) | resource not found: -32002 before 2026-07-28, -32602 from 2026-07-28 on, with `{"uri"}` as data |
//! | `resources/read` of a template | the URI's variable values are well formed (percent-escapes, a repeated variable has one value) | -32602 |
//! | `completion/complete` | the prompt or template exists in the version; the argument is one of its arguments or variables | -32602 |
//!
//! A prompt or template without a completion handler completes to no values. A handler
//! error ([`RequestError`]) becomes its JSON-RPC error; a handler panic is caught and
//! becomes an internal error (-32603) naming the primitive, and the router keeps serving.
//!
//! The capabilities these primitives bring (`prompts`, `resources`, `completions`) are
//! decided with the rest in `capabilities.rs` ([`Router::capabilities`]).
//!
//! [`Router`]: crate::server::router::Router
//! [`RequestError`]: crate::protocol::error::RequestError
//! [`Router::capabilities`]: crate::server::router::Router::capabilities

// One job per file: the handler types (`types.rs`), what the router keeps of each
// primitive (`registry.rs`), their registration (`register.rs`) and their listing
// and dispatch (`serve.rs`).

pub(crate) mod register;
pub(crate) mod registry;
pub(crate) mod serve;
pub(crate) mod types;

pub use types::{CompletionHandler, PromptHandler, ResourceHandler, ResourceTemplateHandler};
