//! The tracker's domain types, written by hand: the generated code uses them instead
//! of generating its own (see `build.rs`), so handlers return them as they are.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// An issue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Issue {
    /// Its id.
    pub id: Uuid,
    /// What it is about.
    pub title: String,
    /// Open or closed.
    pub state: State,
    /// When it was opened.
    pub created: DateTime<Utc>,
    /// When it was closed (`null` while it is open).
    pub closed: Option<DateTime<Utc>>,
    /// Its labels.
    #[serde(default)]
    pub labels: Vec<String>,
}

/// Whether an issue is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Still to do.
    Open,
    /// Done.
    Closed,
}
