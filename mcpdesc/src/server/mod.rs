//! Serving a description: the [`Router`](router::Router) that generated code builds
//! (tools, prompts, resources, templates, completions, security), the per-call
//! [`Context`](context::Context), capabilities, notifications and subscriptions, and
//! the rmcp adapter (`adapter/`, feature `rmcp`).

#[cfg(feature = "rmcp")]
pub(crate) mod adapter;
pub(crate) mod capabilities;
pub(crate) mod client_requests;
pub(crate) mod context;
pub(crate) mod elicited;
pub(crate) mod handlers;
#[cfg(feature = "rmcp")]
pub(crate) mod input_rounds;
pub(crate) mod notifications;
pub(crate) mod panic;
pub mod primitives;
pub(crate) mod router;
pub(crate) mod security;
pub(crate) mod subscriptions;
pub(crate) mod tools;
