//! The outcome of a check: findings, the calls made, and their rendering (human, in
//! the validator's style, and one JSON object).

use serde_json::{json, Value};

use crate::finding::{Finding, Severity};

/// The order of the replayed examples, as the report states it (`sequence.rs` follows
/// it, through [`mcpdesc_description::example_order`]).
pub const EXAMPLE_ORDER: &str = "reads first (prompts, resources, templates, completions, read-only tools), then the other tools, destructive ones last, each in description order; an example with x-mcpdesc-after runs after the examples it names";

/// One request the check sent that may run server code (`tools/call`,
/// `prompts/get`, `resources/read`, `completion/complete`); listings are not listed.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The method.
    pub method: &'static str,
    /// The tool or prompt name, or the URI read.
    pub target: String,
    /// The example replayed, or `generated #N (valid)` / `generated #N (invalid)`.
    pub example: String,
    /// The request's params as sent (the exact input of a generated case).
    pub params: serde_json::Value,
    /// How it ended: `result`, `isError`, `error -32602`, `timeout`, `no answer`.
    pub outcome: String,
}

/// Everything a check found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The description's name (its path as given).
    pub description: String,
    /// The server (command line or URL).
    pub server: String,
    /// The negotiated protocol version.
    pub protocol_version: String,
    /// The seed of the generated inputs.
    pub seed: u64,
    /// Whether `--strict` made example differences failures.
    pub strict: bool,
    /// The findings, in the order found (listings, examples, generated inputs).
    pub findings: Vec<Finding>,
    /// The calls made, in order.
    pub calls: Vec<Call>,
}

impl Report {
    /// How many findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// Whether any finding is a failure.
    pub fn fails(&self) -> bool {
        self.count(Severity::Failure) > 0
    }

    /// The JSON report: `{"description", "server", "protocolVersion", "seed",
    /// "strict", "exampleOrder", "findings": [...], "calls": [...], "counts":
    /// {"failures", "warnings", "skipped", "calls"}}` (findings:
    /// [`Finding::to_json`]; `exampleOrder`: [`EXAMPLE_ORDER`]).
    pub fn to_json(&self) -> Value {
        json!({
            "description": self.description,
            "server": self.server,
            "protocolVersion": self.protocol_version,
            "seed": self.seed,
            "strict": self.strict,
            "exampleOrder": EXAMPLE_ORDER,
            "findings": self.findings.iter().map(Finding::to_json).collect::<Vec<_>>(),
            "calls": self.calls.iter().map(|c| json!({
                "method": c.method,
                "target": c.target,
                "example": c.example,
                "params": c.params,
                "outcome": c.outcome,
            })).collect::<Vec<_>>(),
            "counts": {
                "failures": self.count(Severity::Failure),
                "warnings": self.count(Severity::Warning),
                "skipped": self.count(Severity::Skipped),
                "calls": self.calls.len(),
            },
        })
    }

    /// The human report: one diagnostic per finding, the calls made, a summary line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for finding in &self.findings {
            out.push_str(&finding.render());
            out.push('\n');
        }
        if self.calls.is_empty() {
            out.push_str("called: nothing (select calls with --examples SEL or --generate SEL)\n");
        } else {
            out.push_str(&format!(
                "called ({}; examples in order: {}):\n",
                self.calls.len(),
                EXAMPLE_ORDER
            ));
            for c in &self.calls {
                out.push_str(&format!(
                    "  {} {} [{}]: {}\n",
                    c.method, c.target, c.example, c.outcome
                ));
            }
        }
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        out.push_str(&format!(
            "{} against {} (MCP {}{}): {}, {}, {} skipped\n",
            self.description,
            self.server,
            self.protocol_version,
            if self.strict { ", strict" } else { "" },
            plural(self.count(Severity::Failure), "failure"),
            plural(self.count(Severity::Warning), "warning"),
            self.count(Severity::Skipped),
        ));
        out
    }
}
