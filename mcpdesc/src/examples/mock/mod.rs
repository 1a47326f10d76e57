//! A deterministic mock that answers with a description's example results: `tools/call`
//! from Tool Examples and Tool Interaction Examples, `prompts/get` from Prompt Examples,
//! `resources/read` from Resource and Resource Template Examples, and
//! `completion/complete` from completion examples.
//!
//! **This is a mock, not a prediction.** Examples are illustrative (MCP Description
//! §9.3): the mock never executes a live tool and never reproduces side effects; it only
//! replays the results the description shows, chosen by this documented, deterministic
//! policy, the same for every kind of request:
//!
//! 1. **Explicit selection.** When an example was selected for the target (a tool, a
//!    prompt, a resource, a resource template, or the completions of a prompt or
//!    template; [`ExampleBook::select_target`], `--select` of `mcpdesc serve-mock`),
//!    that example answers every request of the target, whatever its arguments.
//! 2. **Matching request.** Otherwise the first example, in name order, whose request
//!    equals the one received answers:
//!
//!    | request | an example matches when |
//!    |---|---|
//!    | `tools/call` | its `input` equals the arguments, as given or with the `inputSchema`'s property `default`s filled in on both sides ([`with_schema_defaults`]; `ExampleServer` compares through the input type instead) (Tool Examples first, then interaction examples) |
//!    | `prompts/get` | its `arguments` (absent: `{}`) equal the arguments |
//!    | `resources/read` of a resource | always: the declaration's `uri` is the request |
//!    | `resources/read` of a template | its `uri` equals the URI read |
//!    | `completion/complete` | its `argument` (name and value) and `context.arguments` (absent: none) equal the request's |
//!
//!    JSON values are compared in [`canonical`] form (object member order and `1.0` vs
//!    `1` do not matter).
//! 3. **Fallback.** When nothing matches: for a tool, a tool execution error
//!    (`isError: true`); for a prompt or a completion, a JSON-RPC "Invalid params" error
//!    (-32602); for a resource or template, "Resource not found" (-32002, or -32602 from
//!    MCP 2026-07-28 on). Each names the available examples.
//!
//! An answer is the example's whole `result` (shaped for the negotiated version, which
//! for a valid description changes nothing: the example already fits every version of
//! its declaration's scope). Protocol-scoped variants of a declaration keep their own
//! examples: a request is answered from the variant of the negotiated version.
//!
//! An interaction example answers by making its steps' requests through the
//! [`Context`] in order (roots, sampling with the step's params, elicitation with the
//! step's mode, message and schema or URL), then returning its result. The client's
//! answers are not interpreted; a failed request ends the call with a tool error naming
//! the step.
//!
//! [`canonical`]: crate::protocol::json::canonical
//! [`Context`]: crate::server::context::Context

pub(crate) mod book;
mod router;
pub(crate) mod target;
mod tools;

pub use book::{completion_request, BookEntry, ExampleBook, RequestEntry};
pub use router::{with_schema_defaults, Specs};
pub use target::{Selection, Target};
pub use tools::typed_result;
