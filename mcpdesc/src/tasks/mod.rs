//! MCP 2025-11-25 core tasks: a task-augmented `tools/call` of a tool whose
//! `execution.taskSupport` is `optional` or `required` answers a `CreateTaskResult`
//! at once and runs the tool's handler in the background; `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel` follow it. See
//! `docs/serving.md` ("Tasks") for what is served and the defaults of
//! [`TaskLimits`].
//!
//! One job per file: [`TaskSupport`] (which tools, which capability), the
//! per-session store (state, TTL, bounds), the server's handling of the requests,
//! the raw-message rewrites that carry the 2025-11-25 form through rmcp 3.11, and
//! the transport that applies them ([`routed`]).

pub(crate) mod limits;
pub(crate) mod support;
pub use limits::TaskLimits;
pub use support::TaskSupport;

#[cfg(feature = "rmcp")]
pub(crate) mod clock;
#[cfg(feature = "rmcp")]
pub(crate) mod running;
#[cfg(feature = "rmcp")]
pub(crate) mod store;
#[cfg(feature = "rmcp")]
pub(crate) mod transport;
#[cfg(feature = "rmcp")]
pub mod wire;
#[cfg(feature = "rmcp")]
pub use transport::routed;
