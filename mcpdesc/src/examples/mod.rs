//! The description's examples at run time: checked by generated tests (`testing`),
//! answered by the mock (`mock`), replayed against an implementation
//! (`implementation`), with the scripted client of interaction steps and the first
//! difference between two results.

pub(crate) mod data;
pub(crate) mod difference;
#[cfg(feature = "rmcp")]
pub mod implementation;
pub mod mock;
pub(crate) mod scripted;
pub mod testing;
