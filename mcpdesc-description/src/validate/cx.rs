//! The validation context: the document being checked, its versions, the effective
//! scopes of its declarations ([`Scoped`]), and the diagnostics collected so far.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// The mcpdesc format version a document declares in `mcpdesc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpecVersion {
    /// `"0.8.0"`: the stable 0.8.0 rules.
    V0_8_0,
    /// `"0.9.0"`: 0.8.0 plus the 0.9.0-rc.3 Tools changes (digest §10).
    V0_9_0,
}

impl SpecVersion {
    /// Parses the `mcpdesc` member.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "0.8.0" => Some(SpecVersion::V0_8_0),
            "0.9.0" => Some(SpecVersion::V0_9_0),
            _ => None,
        }
    }

    /// The declared text.
    pub fn as_str(self) -> &'static str {
        match self {
            SpecVersion::V0_8_0 => "0.8.0",
            SpecVersion::V0_9_0 => "0.9.0",
        }
    }
}

/// Shared state of one validation run.
pub struct Cx<'d> {
    /// The document after `$componentRef` substitution.
    pub doc: &'d Value,
    /// The declared format version (0.9.0 when the declaration is unusable, so that the
    /// newest rules apply).
    pub spec: SpecVersion,
    /// Root `protocolVersions` (the known ones).
    pub root: VersionSet,
    /// `tools` with their effective scopes (computed once; scope errors reported once).
    pub tools: Vec<Scoped<'d>>,
    /// `resources` with their effective scopes.
    pub resources: Vec<Scoped<'d>>,
    /// `resourceTemplates` with their effective scopes.
    pub resource_templates: Vec<Scoped<'d>>,
    /// `prompts` with their effective scopes.
    pub prompts: Vec<Scoped<'d>>,
    diagnostics: Vec<Diagnostic>,
}

impl<'d> Cx<'d> {
    /// A context for `doc`, with the effective scopes of its primitives computed (and
    /// scopes that leave the root set reported).
    pub fn new(doc: &'d Value, spec: SpecVersion, root: VersionSet) -> Self {
        let mut cx = Cx {
            doc,
            spec,
            root,
            tools: Vec::new(),
            resources: Vec::new(),
            resource_templates: Vec::new(),
            prompts: Vec::new(),
            diagnostics: Vec::new(),
        };
        cx.tools = declarations(&mut cx, "tools");
        cx.resources = declarations(&mut cx, "resources");
        cx.resource_templates = declarations(&mut cx, "resourceTemplates");
        cx.prompts = declarations(&mut cx, "prompts");
        cx
    }

    /// Records an error.
    pub fn error(
        &mut self,
        rule: &'static str,
        code: &'static str,
        at: &Pointer,
        message: impl Into<String>,
    ) {
        self.push(Diagnostic::new(Severity::Error, rule, code, at, message));
    }

    /// Records a warning.
    pub fn warning(
        &mut self,
        rule: &'static str,
        code: &'static str,
        at: &Pointer,
        message: impl Into<String>,
    ) {
        self.push(Diagnostic::new(Severity::Warning, rule, code, at, message));
    }

    /// Records a finished diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The diagnostics collected so far.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Hands over the diagnostics.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// Whether the document declares 0.9.0 (and so follows the 0.9.0-rc.3 Tools text).
    pub fn is_0_9(&self) -> bool {
        self.spec >= SpecVersion::V0_9_0
    }

    /// The effective protocol scope of a declaration whose parent scope is `parent`:
    /// its own `protocolVersions` when present, else the parent's.
    ///
    /// Versions outside the parent scope are reported (`protocol-scope-outside-parent`)
    /// and dropped, so later checks work on a scope that makes sense.
    pub fn scope_of(&mut self, decl: &Value, at: &Pointer, parent: VersionSet) -> VersionSet {
        let Some(list) = decl.get("protocolVersions").and_then(Value::as_array) else {
            return parent;
        };
        let declared: VersionSet = list
            .iter()
            .filter_map(Value::as_str)
            .filter_map(ProtocolVersion::parse)
            .collect();
        let outside = declared.minus(parent);
        if !outside.is_empty() {
            self.error(
                rules::PROTOCOL_SCOPE_CONSISTENCY,
                "protocol-scope-outside-parent",
                &at.key("protocolVersions"),
                format!(
                    "{}.protocolVersions names {outside}, which the enclosing scope ({parent}) does not include; a declaration's scope must be a non-empty subset of its parent's",
                    display_path(at)
                ),
            );
        }
        declared.intersect(parent)
    }

    /// Reports `field` (at `at`) when the declaration's scope includes versions outside
    /// `defined_in`, the versions whose MCP types define that field.
    pub fn field_versions(
        &mut self,
        at: &Pointer,
        field: &str,
        scope: VersionSet,
        defined_in: VersionSet,
    ) -> bool {
        let missing = scope.minus(defined_in);
        if missing.is_empty() {
            return true;
        }
        self.error(
            rules::DECLARATION_FIELD_PROTOCOL_VERSION,
            "field-not-supported-by-version",
            at,
            format!(
                "{} uses `{field}`, which is not defined for {missing}; remove it or narrow protocolVersions into disjoint variants",
                display_path(at)
            ),
        );
        false
    }
}

/// Renders a pointer the way messages show locations: `tools[0].examples["a b"].input`.
pub fn display_path(at: &Pointer) -> String {
    let mut out = String::new();
    for segment in at.segments() {
        let is_index = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
        let is_ident = !segment.is_empty()
            && segment
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            && !segment.starts_with(|c: char| c.is_ascii_digit());
        if is_index && !out.is_empty() {
            out.push_str(&format!("[{segment}]"));
        } else if is_ident {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        } else {
            out.push_str(&format!("[{}]", Value::String(segment)));
        }
    }
    if out.is_empty() {
        out.push_str("(document)");
    }
    out
}

/// A top-level declaration (tool, resource, template, prompt) with its effective scope.
#[derive(Debug, Clone)]
pub struct Scoped<'d> {
    /// Index in its root array.
    pub index: usize,
    /// Pointer to the declaration.
    pub at: Pointer,
    /// The declaration itself.
    pub value: &'d Value,
    /// Its effective protocol scope.
    pub scope: VersionSet,
}

/// The declarations of the root array `list` with their effective scopes (reporting
/// explicit scopes that leave the root set). [`Cx::new`] calls it once per array; use
/// `cx.tools` and its siblings instead of calling it again.
fn declarations<'d>(cx: &mut Cx<'d>, list: &str) -> Vec<Scoped<'d>> {
    let Some(items) = cx.doc.get(list).and_then(Value::as_array) else {
        return Vec::new();
    };
    let root = cx.root;
    items
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let at = Pointer::root().key(list).index(index);
            let scope = cx.scope_of(value, &at, root);
            Scoped {
                index,
                at,
                value,
                scope,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_code() {
        let p = Pointer::root()
            .key("tools")
            .index(0)
            .key("examples")
            .key("paris.complete")
            .key("input");
        assert_eq!(
            display_path(&p),
            r#"tools[0].examples["paris.complete"].input"#
        );
        assert_eq!(display_path(&Pointer::root()), "(document)");
    }
}
