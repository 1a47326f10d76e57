//! Sharing identical schemas: one Rust type per shape.
//!
//! Identical schemas anywhere in the module's tool schemas (shared components, each
//! tool's `$defs`, inline enums and objects at any depth, inside `anyOf`/`oneOf`/`allOf`
//! branches too, and whole tool schemas) become one type instead of one per place:
//!
//! ```text
//! get_issue:   outputSchema = component Issue {id, title}    ─┐
//! list_issues: outputSchema/$defs/Issue {id, title}           ├─▶ types::Issue
//! search:      outputSchema/properties/items/items {id, title}─┘   (GetIssueOutput = Issue)
//! ```
//!
//! [`units`] takes the prepared schemas out of the IR and puts them back, [`places`]
//! finds where a type can come from, [`rounds`] groups identical places and names
//! their type, and [`hoist`] makes the inline schemas the settings replace by name
//! definitions of their own.

pub mod hoist;
pub mod places;
pub mod rounds;
pub mod units;
