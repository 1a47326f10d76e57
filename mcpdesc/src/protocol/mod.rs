//! The values of the MCP protocol as this runtime models them, below everything
//! that serves or calls: protocol versions, content blocks, results, errors, the
//! prompt, resource and completion types and their native list projections, RFC 6570
//! URI templates, and the checks of client capabilities and requirements.

#[cfg(feature = "rmcp")]
pub(crate) mod client_capabilities;
pub mod client_requirements;
pub(crate) mod completions;
pub(crate) mod content;
pub(crate) mod error;
pub(crate) mod futures;
pub(crate) mod json;
pub mod projection;
pub mod prompts;
pub mod resources;
pub(crate) mod result;
pub(crate) mod uri_template;
pub(crate) mod version;
