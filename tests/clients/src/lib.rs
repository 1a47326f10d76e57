//! Generated typed clients under test, and the comparisons their drivers make.
//!
//! The build script generates, for each description under test (see `build.rs`: the
//! chess example, the client fixture, the shared real-world descriptions, and the files
//! of `MCPDESC_CLIENT_DESCRIPTIONS`), a module with its client-only generated code and
//! `call_every_example(session)`, which calls every Tool Example through the typed
//! `Client` and checks the typed answer against the example's result:
//!
//! - a tool with an `outputSchema`: the typed output, serialized, equals the
//!   example's `structuredContent` (as JSON values: `36` and `36.0` are one number);
//! - a tool without: the `ToolResult` equals the example's result;
//! - an `isError` example: the call is `Err(CallError::Tool { result })` and the result
//!   equals the example's.
//!
//! [`DESCRIBED`] lists them all; the tests of `mcpdesc-cli` run them against
//! `mcpdesc serve-mock FILE`.

use futures::future::BoxFuture;
use mcpdesc::client::Session;
use mcpdesc::testing::{canonical, Example, ToolCase};
use mcpdesc::{CallError, ProtocolVersion, ToolResult};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

include!(concat!(env!("OUT_DIR"), "/clients.rs"));

/// One description under test.
#[derive(Debug, Clone, Copy)]
pub struct Described {
    /// The module name (from the file name).
    pub name: &'static str,
    /// The description file.
    pub file: &'static str,
    /// The protocol version the module was generated for, for a description with
    /// protocol-scoped variants.
    pub version: Option<ProtocolVersion>,
    /// The protocol versions the generated module serves (one session each covers
    /// every tool's scope).
    pub versions: &'static [ProtocolVersion],
    /// How many Tool Examples its tools have.
    pub examples: usize,
    /// Calls every Tool Example through the typed client over the session.
    pub run: fn(Session) -> BoxFuture<'static, Outcome>,
}

/// What a driver found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Examples whose typed answer equals the example's (`tool/example` labels).
    pub passed: Vec<String>,
    /// Examples of tools outside the negotiated protocol version (not called).
    pub skipped: Vec<String>,
    /// What went wrong, one message per example.
    pub failures: Vec<String>,
}

fn label(tool: &ToolCase, example: &Example) -> String {
    format!("{}/{}", tool.tool, example.name)
}

/// The example's input as the typed input.
pub fn input<T: DeserializeOwned>(tool: &ToolCase, example: &Example) -> Result<T, String> {
    serde_json::from_str(example.input).map_err(|e| {
        format!(
            "{}: the input does not fit the input type: {e}",
            label(tool, example)
        )
    })
}

fn expected(example: &Example) -> Value {
    serde_json::from_str(example.result).unwrap_or(Value::Null)
}

impl Outcome {
    /// Whether the tool is served in the session's version; records a skip if not.
    pub fn in_scope(&mut self, session: &Session, tool: &ToolCase, example: &Example) -> bool {
        let version = session.protocol_version();
        if tool.scope.is_empty() || tool.scope.contains(&version) {
            return true;
        }
        self.skipped.push(label(tool, example));
        false
    }

    /// Records a failure.
    pub fn fail(&mut self, message: String) {
        self.failures.push(message);
    }

    /// Checks the typed output of a tool with an `outputSchema`.
    pub fn check_output<O: Serialize>(
        &mut self,
        tool: &ToolCase,
        example: &Example,
        answer: Result<O, CallError>,
    ) {
        let expected = expected(example);
        let label = label(tool, example);
        match answer {
            Ok(output) => {
                // Compared as JSON values: `36` and `36.0` are the same number.
                let got = canonical(&serde_json::to_value(&output).unwrap_or(Value::Null));
                let want = canonical(expected.get("structuredContent").unwrap_or(&Value::Null));
                if expected["isError"] == true {
                    self.fail(format!(
                        "{label}: expected a tool error, got the output {got}"
                    ));
                } else if got != want {
                    self.fail(format!("{label}: typed output {got} differs from the example's structuredContent {want}"));
                } else {
                    self.passed.push(label);
                }
            }
            Err(error) => self.check_error(label, &expected, error),
        }
    }

    /// Checks the result of a tool without an `outputSchema`.
    pub fn check_result(
        &mut self,
        tool: &ToolCase,
        example: &Example,
        answer: Result<ToolResult, CallError>,
    ) {
        let expected = expected(example);
        let label = label(tool, example);
        match answer {
            Ok(result) => {
                let want: Option<ToolResult> = serde_json::from_value(expected.clone()).ok();
                if expected["isError"] == true {
                    self.fail(format!("{label}: expected a tool error, got {result:?}"));
                } else if want.as_ref() != Some(&result) {
                    self.fail(format!(
                        "{label}: result {result:?} differs from the example's {expected}"
                    ));
                } else {
                    self.passed.push(label);
                }
            }
            Err(error) => self.check_error(label, &expected, error),
        }
    }

    /// An error is right only for an `isError` example, as `CallError::Tool` with the
    /// example's result.
    fn check_error(&mut self, label: String, expected: &Value, error: CallError) {
        match error {
            CallError::Tool { result, .. } if expected["isError"] == true => {
                let want: Option<ToolResult> = serde_json::from_value(expected.clone()).ok();
                if want.as_ref() == Some(&result) {
                    self.passed.push(label);
                } else {
                    self.fail(format!(
                        "{label}: tool error {result:?} differs from the example's {expected}"
                    ));
                }
            }
            error => self.fail(format!("{label}: {error}")),
        }
    }
}
