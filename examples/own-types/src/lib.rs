//! An issue tracker served from `issues.mcpdesc.json`, whose generated code uses the
//! crate's own types ([`model::Issue`], [`model::State`], `uuid::Uuid`,
//! `chrono::DateTime<Utc>`): see `build.rs` for the settings.
//!
//! `cargo test` runs the generated example tests: each example's input and result
//! round-trip through these types, and the tracker answers each example's call with
//! the example's result.

pub mod model;

use std::sync::Mutex;

use chrono::{DateTime, Utc};
use mcpdesc::{Context, ToolError};

use model::{Issue, State};

/// The generated module: `types`, one trait per tool, `router`.
pub mod issues {
    mcpdesc::include_generated!("issues");
}

use issues::types;

/// The tracker: issues in memory and a clock.
pub struct Tracker {
    issues: Mutex<Vec<Issue>>,
    now: DateTime<Utc>,
}

/// The issues of the description's examples, as JSON (those the model cannot read are
/// left out, so that one unreadable example fails its own test only).
const EXAMPLE_ISSUES: &str = r#"[
  {"id": "5f0c6a1e-3b8e-4c1a-9a53-2d8c3c8f4e01", "title": "Login fails on Safari", "state": "open",
   "created": "2025-03-01T09:30:00Z", "closed": null, "labels": ["bug"]},
  {"id": "0b7d2f64-91a2-4c8e-bf5e-6e0f4a1d9c22", "title": "Dark mode", "state": "closed",
   "created": "2025-02-11T14:00:00Z", "closed": "2025-02-20T08:15:00Z", "labels": []}
]"#;

impl Tracker {
    /// A tracker with the given issues and clock.
    pub fn new(issues: Vec<Issue>, now: DateTime<Utc>) -> Self {
        Tracker {
            issues: Mutex::new(issues),
            now,
        }
    }

    /// The tracker the examples describe: their issues, and the time of their clock.
    pub fn for_examples() -> Self {
        let values: Vec<serde_json::Value> =
            serde_json::from_str(EXAMPLE_ISSUES).expect("the example issues are JSON");
        let issues = values
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect();
        let now = "2025-03-01T09:30:00Z".parse().expect("a time");
        Tracker::new(issues, now)
    }

    fn find(&self, id: uuid::Uuid) -> Result<Issue, ToolError> {
        self.issues
            .lock()
            .expect("not poisoned")
            .iter()
            .find(|i| i.id == id)
            .cloned()
            .ok_or_else(|| ToolError::new(format!("no issue {id}")))
    }
}

impl issues::GetIssue for Tracker {
    async fn get_issue(
        &self,
        input: types::GetIssueInput,
        _cx: Context,
    ) -> Result<Issue, ToolError> {
        self.find(input.id)
    }
}

impl issues::ListIssues for Tracker {
    async fn list_issues(
        &self,
        input: types::ListIssuesInput,
        _cx: Context,
    ) -> Result<types::ListIssuesOutput, ToolError> {
        let mut issues: Vec<Issue> = self
            .issues
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|i| input.state.is_none_or(|s| i.state == s))
            .filter(|i| input.since.is_none_or(|since| i.created >= since))
            .cloned()
            .collect();
        issues.sort_by_key(|i| std::cmp::Reverse(i.created));
        Ok(types::ListIssuesOutput { issues, next: None })
    }
}

impl issues::SearchIssues for Tracker {
    async fn search_issues(
        &self,
        input: types::SearchIssuesInput,
        _cx: Context,
    ) -> Result<types::SearchIssuesOutput, ToolError> {
        let items = self
            .issues
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|i| i.title.contains(&input.query))
            .cloned()
            .collect();
        Ok(types::SearchIssuesOutput { items })
    }
}

impl issues::UpdateIssue for Tracker {
    async fn update_issue(
        &self,
        input: types::UpdateIssueInput,
        _cx: Context,
    ) -> Result<Issue, ToolError> {
        let mut all = self.issues.lock().expect("not poisoned");
        let issue = all
            .iter_mut()
            .find(|i| i.id == input.id)
            .ok_or_else(|| ToolError::new(format!("no issue {}", input.id)))?;
        match input.change {
            types::UpdateIssueInputChange::State { state } => {
                if issue.state != state {
                    issue.closed = (state == State::Closed).then_some(self.now);
                }
                issue.state = state;
            }
            types::UpdateIssueInputChange::Title { title } => issue.title = title,
        }
        Ok(issue.clone())
    }
}

/// The offset of the timezones the tracker knows, in hours.
fn offset_hours(timezone: &str) -> Option<f64> {
    match timezone {
        "UTC" => Some(0.0),
        "Europe/Paris" => Some(1.0),
        "America/New_York" => Some(-5.0),
        _ => None,
    }
}

impl issues::GetCurrentTime for Tracker {
    async fn get_current_time(
        &self,
        input: types::GetCurrentTimeInput,
        _cx: Context,
    ) -> Result<types::TimeResult, ToolError> {
        offset_hours(&input.timezone)
            .ok_or_else(|| ToolError::new(format!("unknown timezone {}", input.timezone)))?;
        Ok(types::TimeResult {
            timezone: input.timezone,
            datetime: self.now,
            is_dst: false,
        })
    }
}

impl issues::ConvertTime for Tracker {
    async fn convert_time(
        &self,
        input: types::ConvertTimeInput,
        _cx: Context,
    ) -> Result<types::ConvertTimeOutput, ToolError> {
        let target = offset_hours(&input.target_timezone)
            .ok_or_else(|| ToolError::new(format!("unknown timezone {}", input.target_timezone)))?;
        let at = |timezone: &str| types::TimeResult {
            timezone: timezone.to_owned(),
            datetime: self.now,
            is_dst: false,
        };
        Ok(types::ConvertTimeOutput {
            source: at("UTC"),
            target: at(&input.target_timezone),
            time_difference: format!("{target:+.1}h"),
        })
    }
}
