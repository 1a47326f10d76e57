//! The opt-in contract check (`check_against_examples`, generated next to `router`) on a
//! user's own implementation of a tool with an interaction example: the
//! `named-tool-interaction-examples` fixture's `prepare_release` (MCP 2025-11-25 view)
//! asks for roots, samples, then elicits a confirmation. The check drives the
//! implementation with a scripted client of the example's steps and compares the result
//! with the example's.

use mcpdesc::{Context, ElicitAction, ToolError};
use serde_json::{json, Value};

#[allow(dead_code)]
mod release {
    include!("../snapshots/fixture-named-tool-interaction-examples@2025-11-25.rs");
}

use release::types::{PrepareReleaseInput, PrepareReleaseOutput};

/// How an implementation deviates from the example.
#[derive(Clone, Copy, PartialEq)]
enum Flaw {
    None,
    SkipsConfirmation,
    WrongSamplingPrompt,
    ReportsDraft,
}

struct Releaser(Flaw);

impl release::PrepareRelease for Releaser {
    async fn prepare_release(
        &self,
        input: PrepareReleaseInput,
        cx: Context,
    ) -> Result<PrepareReleaseOutput, ToolError> {
        let fail = |e: mcpdesc::ClientError| ToolError::new(e.to_string());
        let roots = cx.list_roots().await.map_err(fail)?;
        if roots.is_empty() {
            return Err(ToolError::new("no workspace root"));
        }
        let prompt = match self.0 {
            Flaw::WrongSamplingPrompt => format!("Summarize release {}.", input.version),
            _ => "Summarize the release plan.".to_owned(),
        };
        cx.create_message(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
            "tools": [{
                "name": "diff_summary",
                "description": "Summarize pending release changes.",
                "inputSchema": {"type": "object", "properties": {"branch": {"type": "string"}}, "required": ["branch"]}
            }],
            "toolChoice": {"mode": "auto"},
            "maxTokens": 180
        }))
        .await
        .map_err(fail)?;
        if self.0 != Flaw::SkipsConfirmation {
            let answer = cx
                .elicit_form(
                    "Approve this release?",
                    json!({"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]}),
                )
                .await
                .map_err(fail)?;
            let approved = answer.action == ElicitAction::Accept
                && answer.content.as_ref().and_then(|c| c.get("approved"))
                    == Some(&Value::Bool(true));
            if !approved {
                return Err(ToolError::new("release not approved"));
            }
        }
        let status = if self.0 == Flaw::ReportsDraft {
            "draft"
        } else {
            "prepared"
        };
        Ok(PrepareReleaseOutput {
            status: status.to_owned(),
        })
    }
}

const EXAMPLE: &[(&str, &str)] = &[("prepare_release", "approved-release")];

#[test]
fn a_faithful_implementation_passes_the_interaction_example() {
    release::check_against_examples(Releaser(Flaw::None), EXAMPLE).unwrap();
}

#[test]
fn a_missing_request_is_reported_with_its_step() {
    let diff =
        release::check_against_examples(Releaser(Flaw::SkipsConfirmation), EXAMPLE).unwrap_err();
    assert!(
        diff.contains("interaction example `approved-release`")
            && diff.contains("step 2 (elicitation) was never requested"),
        "{diff}"
    );
}

#[test]
fn a_different_request_is_rejected_at_its_step() {
    let diff =
        release::check_against_examples(Releaser(Flaw::WrongSamplingPrompt), EXAMPLE).unwrap_err();
    assert!(diff.contains("step 1"), "{diff}");
    assert!(diff.contains("sampling"), "{diff}");
    // The tool saw the rejection and failed, so the results differ too.
    assert!(diff.contains("isError: expected false, got true"), "{diff}");
}

#[test]
fn a_different_result_is_shown_as_a_diff() {
    let diff = release::check_against_examples(Releaser(Flaw::ReportsDraft), EXAMPLE).unwrap_err();
    assert!(
        diff.contains("tool `prepare_release`, example `approved-release`"),
        "{diff}"
    );
    assert!(
        diff.contains(r#"expected: {"status":"prepared"}"#)
            && diff.contains(r#"actual:   {"status":"draft"}"#),
        "{diff}"
    );
}

#[test]
fn an_unknown_example_name_is_reported() {
    let diff =
        release::check_against_examples(Releaser(Flaw::None), &[("prepare_release", "nope")])
            .unwrap_err();
    assert!(
        diff.contains("no example `nope`") && diff.contains("`approved-release`"),
        "{diff}"
    );
}
