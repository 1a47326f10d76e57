//! The description's security enforced on HTTP: the gate in front of rmcp
//! (`gate.rs`), the credentials taken out of a request (`extract.rs`), the
//! `WWW-Authenticate` challenges (`challenge.rs`), the Protected Resource Metadata
//! (`metadata.rs`, public as `mcpdesc::auth::metadata`) and what a request body
//! calls (`peek.rs`). The model it enforces is `crate::auth`'s.

pub(crate) mod challenge;
pub(crate) mod extract;
pub(crate) mod gate;
pub mod metadata;
pub(crate) mod peek;
