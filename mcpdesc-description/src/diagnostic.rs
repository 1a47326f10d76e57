//! Diagnostics: what validation and generation report, and how it is shown.

use serde::Serialize;
use std::fmt;

use crate::pointer::Pointer;
use crate::position::SourceMap;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The description is invalid; nothing is generated from it.
    Error,
    /// The description is valid, but something deserves attention
    /// (an incomplete check, a deprecated feature, a native-shape restriction).
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One finding about a description, at one place in its source.
///
/// `rule` is the specification's rule id (`mcp.tool.input-schema.object-root`), `code` a
/// short kebab-case name of the particular check (`tool-input-schema-not-object`), and
/// `pointer` the JSON Pointer of the value concerned. `line` and `column` (1-based, column
/// counted in characters) locate that value in the source file; for a missing member they
/// locate the object that lacks it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub severity: Severity,
    /// The rule id in the specification's form.
    pub rule: &'static str,
    /// A short kebab-case code for the individual check.
    pub code: &'static str,
    /// JSON Pointer of the offending value.
    pub pointer: String,
    /// 1-based line in the source file (0 when the source has no position for it).
    pub line: usize,
    /// 1-based column in the source file (0 when unknown).
    pub column: usize,
    /// What is wrong, naming the protocol versions where they matter.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic with no position yet; [`Diagnostic::locate`] fills it in.
    pub fn new(
        severity: Severity,
        rule: &'static str,
        code: &'static str,
        pointer: &Pointer,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity,
            rule,
            code,
            pointer: pointer.as_str().to_owned(),
            line: 0,
            column: 0,
            message: message.into(),
        }
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Sets `line` and `column` from the source map, using the nearest ancestor of the
    /// pointer that has a position (a missing member is reported at its parent).
    pub fn locate(&mut self, map: &SourceMap) {
        if self.line != 0 {
            return;
        }
        if let Some(pos) = Pointer::parse(&self.pointer).and_then(|p| map.nearest(&p)) {
            self.line = pos.line;
            self.column = pos.column;
        }
    }

    /// Renders the diagnostic the way rustc does, with the offending source line:
    ///
    /// ```text
    /// error[mcp.tool.input-schema.object-root]: tools[0].inputSchema must describe an object
    ///   --> chess.mcpdesc.json:12:7
    ///    |
    /// 12 |       "inputSchema": { "type": "string" },
    ///    |       ^
    ///    = pointer: /tools/0/inputSchema (code: tool-input-schema-not-object)
    /// ```
    pub fn render(&self, file: &str, source: Option<&str>) -> String {
        let mut out = format!("{}[{}]: {}\n", self.severity, self.rule, self.message);
        let line_text = source
            .filter(|_| self.line > 0)
            .and_then(|text| text.lines().nth(self.line - 1));
        let gutter = self.line.max(1).to_string().len();
        let pad = " ".repeat(gutter);
        if self.line > 0 {
            out.push_str(&format!("{pad}--> {file}:{}:{}\n", self.line, self.column));
        } else {
            out.push_str(&format!("{pad}--> {file}\n"));
        }
        if let Some(text) = line_text {
            let shown: String = text.chars().take(200).collect();
            let caret_at = self.column.saturating_sub(1).min(shown.chars().count());
            let lead: String = shown
                .chars()
                .take(caret_at)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            out.push_str(&format!(
                "{pad} |\n{} | {shown}\n{pad} | {lead}^\n",
                self.line
            ));
        }
        let pointer = if self.pointer.is_empty() {
            "(document root)"
        } else {
            &self.pointer
        };
        out.push_str(&format!(
            "{pad} = pointer: {pointer} (code: {})\n",
            self.code
        ));
        out
    }
}

/// Sorts diagnostics into a stable, reader-friendly order: by position, then pointer,
/// rule and message. Validation output is therefore deterministic.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| {
        (a.line, a.column, &a.pointer, a.rule, a.code, &a.message)
            .cmp(&(b.line, b.column, &b.pointer, b.rule, b.code, &b.message))
    });
}
