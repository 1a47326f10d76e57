//! The tool rules' tests, on whole descriptions.

use serde_json::{json, Value};

use crate::description::Description;
use crate::diagnostic::Diagnostic;
use crate::source::Limits;

/// A 0.9.0 document with the given root versions and tools.
fn doc(versions: &[&str], tools: Value) -> Value {
    json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": versions,
        "tools": tools
    })
}

fn run(document: &Value) -> Vec<Diagnostic> {
    crate::validate::validation::validate(document, &crate::position::SourceMap::default())
        .diagnostics
}

/// The (code, pointer) pairs of diagnostics with the given rule.
fn found(diags: &[Diagnostic], rule: &str) -> Vec<(String, String)> {
    diags
        .iter()
        .filter(|d| d.rule == rule)
        .map(|d| (d.code.to_owned(), d.pointer.clone()))
        .collect()
}

fn pair(code: &str, pointer: &str) -> (String, String) {
    (code.to_owned(), pointer.to_owned())
}

#[test]
fn valid_tool_has_no_diagnostics() {
    let d = run(&doc(
        &["2025-06-18", "2025-11-25"],
        json!([{
            "name": "add", "title": "Add",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]},
            "examples": {"one": {"input": {"a": 1}, "result": {"content": [{"type": "text", "text": "1"}], "structuredContent": {"sum": 1}}}}
        }]),
    ));
    assert!(d.is_empty(), "{d:#?}");
}

#[test]
fn input_schema_root_rules_per_version() {
    // A declared non-object type is an error in every version.
    let d = run(&doc(
        &["2025-11-25"],
        json!([{"name": "a", "inputSchema": {"type": "string"}}]),
    ));
    assert_eq!(
        found(&d, "mcp.tool.input-schema.object-root"),
        [pair(
            "tool-input-schema-not-object",
            "/tools/0/inputSchema/type"
        )]
    );
    // No type: an error before 2025-11-25, a native-shape warning from 2025-11-25.
    let schema = json!({"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object"}}});
    let d = run(&doc(
        &["2025-06-18", "2025-11-25"],
        json!([{"name": "a", "inputSchema": schema}]),
    ));
    assert_eq!(
        found(&d, "mcp.tool.input-schema.object-root"),
        [pair("tool-input-schema-not-object", "/tools/0/inputSchema")]
    );
    let d = run(&doc(
        &["2025-11-25", "2026-07-28"],
        json!([{"name": "a", "inputSchema": schema}]),
    ));
    assert!(
        found(&d, "mcp.tool.input-schema.object-root").is_empty(),
        "{d:#?}"
    );
    let warn: Vec<_> = d
        .iter()
        .filter(|d| d.rule == "mcp.tool.schema.native-shape")
        .collect();
    assert_eq!(warn.len(), 1, "{d:#?}");
    assert!(!warn[0].is_error());
    assert!(
        warn[0].message.contains("MCP 2025-11-25, 2026-07-28"),
        "{}",
        warn[0].message
    );
}

#[test]
fn boolean_top_level_property_warns_for_2025_11_25_only() {
    let tool = json!([{"name": "a", "inputSchema": {"type": "object", "properties": {"x": true}}}]);
    let d = run(&doc(&["2025-11-25"], tool.clone()));
    assert_eq!(
        found(&d, "mcp.tool.schema.native-shape"),
        [pair(
            "tool-schema-native-shape",
            "/tools/0/inputSchema/properties/x"
        )]
    );
    assert!(run(&doc(&["2026-07-28"], tool)).is_empty());
}

#[test]
fn output_schema_root_rules_per_version() {
    let tool = |schema: Value| json!([{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": schema}]);
    let d = run(&doc(&["2026-07-28"], tool(json!({"type": "array"}))));
    assert!(d.is_empty(), "{d:#?}");
    let d = run(&doc(&["2025-11-25"], tool(json!({"type": "array"}))));
    assert_eq!(
        found(&d, "mcp.tool.output-schema.object-root"),
        [pair(
            "tool-output-schema-not-object",
            "/tools/0/outputSchema/type"
        )]
    );
    let d = run(&doc(&["2025-06-18"], tool(json!({"properties": {}}))));
    assert_eq!(
        found(&d, "mcp.tool.output-schema.object-root"),
        [pair(
            "tool-output-schema-not-object",
            "/tools/0/outputSchema"
        )]
    );
}

#[test]
fn dialects_and_schema_validity() {
    let d = run(&doc(
        &["2025-11-25"],
        json!([
            {"name": "a", "inputSchema": {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}},
            {"name": "b", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"p": {"items": [{"type": "string"}]}}}},
            {"name": "c", "inputSchema": {"type": "object", "required": "x"}}
        ]),
    ));
    assert_eq!(
        found(&d, "json-schema.tool-schema.valid"),
        [
            pair(
                "unsupported-tool-schema-dialect",
                "/tools/0/inputSchema/$schema"
            ),
            pair("invalid-tool-schema", "/tools/2/inputSchema/required"),
        ]
    );
}

#[test]
fn schema_keyword_before_2025_11_25_is_inapplicable() {
    let d = run(&doc(
        &["2025-06-18"],
        json!([{"name": "a", "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}}]),
    ));
    assert_eq!(
        found(&d, "mcp.declaration.field.protocol-version"),
        [pair(
            "field-not-supported-by-version",
            "/tools/0/inputSchema/$schema"
        )]
    );
}

#[test]
fn legacy_shape_before_2025_11_25() {
    let d = run(&doc(
        &["2025-06-18"],
        json!([{"name": "a", "inputSchema": {"type": "object", "properties": {"x": 1}, "required": [1]}}]),
    ));
    assert_eq!(
        found(&d, "mcp.tool.schema.legacy-shape"),
        [
            pair(
                "invalid-legacy-tool-schema-shape",
                "/tools/0/inputSchema/properties/x"
            ),
            pair(
                "invalid-legacy-tool-schema-shape",
                "/tools/0/inputSchema/required"
            ),
        ]
    );
}

#[test]
fn external_references_warn_and_make_example_validation_incomplete() {
    let d = run(&doc(
        &["2026-07-28"],
        json!([{
            "name": "a",
            "inputSchema": {"type": "object", "properties": {"id": {"$ref": "https://schemas.example.invalid/id.json"}}},
            "examples": {"e": {"input": {"id": "x"}, "result": {"resultType": "complete", "content": []}}}
        }]),
    ));
    assert!(d.iter().all(|d| !d.is_error()), "{d:#?}");
    assert_eq!(
        found(&d, "json-schema.tool-schema.valid"),
        [pair(
            "unresolved-external-tool-schema-reference",
            "/tools/0/inputSchema/properties/id/$ref"
        )]
    );
    assert_eq!(
        found(&d, "mcpdesc.tool.example.schema-conformance"),
        [pair(
            "incomplete-tool-example-validation",
            "/tools/0/examples/e/input"
        )]
    );
}

#[test]
fn mcp_header_rules() {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "zone": {"type": "string", "x-mcp-header": "region"},
            "bad": {"type": "string", "x-mcp-header": "Not A Token"},
            "count": {"type": "number", "x-mcp-header": "Count"},
            "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}
        }
    });
    let d = run(&doc(
        &["2026-07-28"],
        json!([{"name": "a", "inputSchema": schema.clone()}]),
    ));
    let mut got = found(&d, "mcp.tool.input-schema.x-mcp-header");
    got.sort();
    assert_eq!(
        got,
        [
            pair(
                "duplicate-x-mcp-header",
                "/tools/0/inputSchema/properties/zone/x-mcp-header"
            ),
            pair(
                "invalid-x-mcp-header",
                "/tools/0/inputSchema/properties/bad/x-mcp-header"
            ),
            pair(
                "invalid-x-mcp-header",
                "/tools/0/inputSchema/properties/count/x-mcp-header"
            ),
            pair(
                "invalid-x-mcp-header",
                "/tools/0/inputSchema/properties/list/items/x-mcp-header"
            ),
        ]
    );
    let d = run(&doc(
        &["2025-11-25"],
        json!([{"name": "a", "inputSchema": {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}}]),
    ));
    assert_eq!(
        found(&d, "mcp.declaration.field.protocol-version"),
        [pair(
            "field-not-supported-by-version",
            "/tools/0/inputSchema/properties/r/x-mcp-header"
        )]
    );
}

#[test]
fn member_applicability_and_same_name_scopes() {
    let d = run(&doc(
        &["2025-03-26", "2025-11-25", "2026-07-28"],
        json!([
            {"name": "a", "title": "A", "inputSchema": {"type": "object"}, "protocolVersions": ["2025-03-26", "2025-11-25"]},
            {"name": "a", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}, "protocolVersions": ["2025-11-25", "2026-07-28"]}
        ]),
    ));
    assert_eq!(
        found(&d, "mcp.declaration.field.protocol-version"),
        [
            pair("field-not-supported-by-version", "/tools/0/title"),
            pair("field-not-supported-by-version", "/tools/1/execution"),
        ]
    );
    let overlap = found(&d, "mcpdesc.protocol-scope.consistency");
    assert_eq!(overlap, [pair("primitive-scope-overlap", "/tools/1")]);
    let message = &d
        .iter()
        .find(|d| d.code == "primitive-scope-overlap")
        .unwrap()
        .message;
    assert!(message.contains("MCP 2025-11-25"), "{message}");
}

#[test]
fn annotations_are_closed_in_0_9_only() {
    let tools = json!([{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "priority": 1, "x-k": 1}}]);
    let d = run(&doc(&["2025-11-25"], tools.clone()));
    assert_eq!(
        found(&d, "mcp.tool-annotations.members"),
        [
            pair("unknown-tool-annotation", "/tools/0/annotations/priority"),
            pair("unknown-tool-annotation", "/tools/0/annotations/x-k"),
        ]
    );
    let mut old = doc(&["2025-11-25"], tools);
    old["mcpdesc"] = json!("0.8.0");
    assert!(run(&old).is_empty());
}

#[test]
fn example_results_by_kind_and_version() {
    let tool = json!({
        "name": "t",
        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
        "outputSchema": {"type": "object", "properties": {"v": {"type": "integer"}}, "required": ["v"]},
        "examples": {
            "bad-input": {"input": {"n": "x"}, "result": {"resultType": "complete", "content": [], "structuredContent": {"v": 1}}},
            "no-structured": {"input": {"n": 1}, "result": {"resultType": "complete", "content": []}},
            "bad-structured": {"input": {"n": 1}, "result": {"resultType": "complete", "content": [], "structuredContent": {"v": "x"}}},
            "error-with-structured": {"input": {"n": 1}, "result": {"resultType": "complete", "content": [{"type": "text", "text": "no"}], "isError": true, "structuredContent": {"v": 1}}},
            "no-result-type": {"input": {"n": 1}, "result": {"content": [], "structuredContent": {"v": 1}}},
            "envelope": {"input": {"n": 1}, "result": {"resultType": "complete", "content": [], "structuredContent": {"v": 1}, "jsonrpc": "2.0"}}
        }
    });
    let d = run(&doc(&["2026-07-28"], json!([tool])));
    let mut got: Vec<_> = d
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            (
                "missing-tool-example-structured-content",
                "/tools/0/examples/no-structured/result"
            ),
            (
                "structured-tool-error-example",
                "/tools/0/examples/error-with-structured/result/structuredContent"
            ),
            (
                "tool-example-json-rpc-envelope",
                "/tools/0/examples/envelope/result/jsonrpc"
            ),
            (
                "tool-example-result-version-mismatch",
                "/tools/0/examples/no-result-type/result"
            ),
            (
                "tool-example-schema-mismatch",
                "/tools/0/examples/bad-input/input/n"
            ),
            (
                "tool-example-schema-mismatch",
                "/tools/0/examples/bad-structured/result/structuredContent/v"
            ),
        ]
    );
}

#[test]
fn result_type_before_2026_differs_between_0_8_and_0_9() {
    let tools = json!([{"name": "a", "inputSchema": {"type": "object"},
            "examples": {"e": {"input": {}, "result": {"resultType": "complete", "content": []}}}}]);
    let new = doc(&["2025-11-25"], tools);
    assert!(run(&new).is_empty());
    let mut old = new.clone();
    old["mcpdesc"] = json!("0.8.0");
    assert_eq!(
        found(&run(&old), "mcpdesc.example.result.protocol-fidelity"),
        [pair(
            "tool-example-result-version-mismatch",
            "/tools/0/examples/e/result/resultType"
        )]
    );
}

#[test]
fn interaction_steps() {
    let tool = json!({
        "name": "t",
        "inputSchema": {"type": "object"},
        "clientRequirements": {"sampling": {}},
        "elicitations": [{"name": "confirm", "mode": "form", "message": "OK?",
            "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}],
        "interactionExamples": {"s": {
            "input": {},
            "steps": [
                {"type": "elicitation", "declaration": "nope", "request": {"mode": "form", "message": "m",
                    "requestedSchema": {"type": "object", "properties": {}}}, "response": {"action": "decline", "content": {}}},
                {"type": "elicitation", "declaration": "confirm", "request": {"mode": "form", "message": "OK?",
                    "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}},
                    "response": {"action": "accept", "content": {"ok": "yes"}}},
                {"type": "sampling", "request": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                    "maxTokens": 5, "tools": [{"name": "x", "inputSchema": {"type": "object"}}]},
                    "response": {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}},
                {"type": "roots", "request": {}, "response": {"roots": [{"uri": "https://example.com/"}]}}
            ],
            "result": {"content": []}
        }}
    });
    let d = run(&doc(&["2025-06-18"], json!([tool])));
    let mut got: Vec<_> = d
        .iter()
        .map(|d| (d.severity, d.code, d.pointer.as_str()))
        .collect();
    got.sort();
    let s = "/tools/0/interactionExamples/s/steps";
    use crate::diagnostic::Severity::{Error, Warning};
    let expected = [
        (
            Error,
            "interaction-example-elicitation-content-schema-mismatch",
            format!("{s}/1/response/content/ok"),
        ),
        (
            Error,
            "interaction-example-elicitation-response-mismatch",
            format!("{s}/0/response/content"),
        ),
        (
            Error,
            "interaction-example-roots-uri",
            format!("{s}/3/response/roots/0/uri"),
        ),
        (
            Error,
            "interaction-example-version-mismatch",
            format!("{s}/2/request/tools"),
        ),
        (
            Error,
            "unknown-elicitation-declaration",
            format!("{s}/0/declaration"),
        ),
        // 2025-06-18 defines no schema dialect, but `{"type": "object"}` means the same in
        // every draft: the input is checked completely, with no incomplete-validation warning.
        (
            Warning,
            "interaction-example-client-requirements-contradiction",
            format!("{s}/0"),
        ),
        (
            Warning,
            "interaction-example-client-requirements-contradiction",
            format!("{s}/1"),
        ),
        (
            Warning,
            "interaction-example-client-requirements-contradiction",
            format!("{s}/2"),
        ),
        (
            Warning,
            "interaction-example-client-requirements-contradiction",
            format!("{s}/3"),
        ),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(sev, c, p)| (*sev, *c, p.as_str()))
        .collect();
    assert_eq!(got, expected, "{d:#?}");
}

#[test]
fn diagnostics_point_at_the_source_line_even_through_components() {
    let text = r##"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2025-11-25"],
  "components": {
    "toolExamples": {
      "shared": {
        "input": {"n": "not a number"},
        "result": {"content": []}
      }
    }
  },
  "tools": [
    {
      "name": "t",
      "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
      "examples": {"via-ref": {"$componentRef": "#/components/toolExamples/shared"}}
    }
  ]
}"##;
    let desc = Description::from_text("t.json", text.to_owned(), None, &Limits::default());
    let d: Vec<_> = desc.errors().collect();
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].pointer, "/tools/0/examples/via-ref/input/n");
    assert_eq!((d[0].line, d[0].column), (8, 19));
    let rendered = desc.render_diagnostics();
    assert!(rendered.contains("--> t.json:8:19"), "{rendered}");
    assert!(
        rendered.contains("error[mcpdesc.tool.example.schema-conformance]"),
        "{rendered}"
    );
}

#[test]
fn substituted_components_get_the_shape_of_their_use_site_once() {
    let document = json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": ["2025-11-25"],
        "components": {
            "schemas": {"Nested": {"type": "object", "properties": {"inner": {"type": "object"}}}},
            "toolExamples": {"shared": {"input": {}, "result": {"content": []}, "summary": "not allowed"}}
        },
        "tools": [
            {"name": "a", "inputSchema": {"type": "object"},
             "examples": {"e": {"$componentRef": "#/components/toolExamples/shared"}},
             "elicitations": [{"name": "ask", "mode": "form", "message": "m",
                               "requestedSchema": {"$componentRef": "#/components/schemas/Nested"}}]},
            {"name": "b", "inputSchema": {"type": "object"},
             "examples": {"e": {"$componentRef": "#/components/toolExamples/shared"}}}
        ]
    });
    let d = run(&document);
    let unknown: Vec<_> = d
        .iter()
        .filter(|d| d.code == "unknown-property")
        .map(|d| d.pointer.as_str())
        .collect();
    // Reported once, where it is written; not again at each of the two use sites.
    assert_eq!(
        unknown,
        ["/components/toolExamples/shared/summary"],
        "{d:#?}"
    );
    // A plain object schema is fine as a component, but not as a form property.
    assert!(
        d.iter().any(|d| d.is_error()
            && d.pointer
                .starts_with("/tools/0/elicitations/0/requestedSchema/properties/inner")),
        "{d:#?}"
    );
}

#[test]
fn interaction_form_schemas_follow_the_version_vocabulary() {
    let tool = json!({
        "name": "t", "inputSchema": {"type": "object"},
        "interactionExamples": {"s": {
            "input": {},
            "steps": [{"type": "elicitation",
                "request": {"mode": "form", "message": "m",
                    "requestedSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                        "properties": {"n": {"type": "string", "default": "x"}}}},
                "response": {"action": "cancel"}}],
            "result": {"content": []}
        }}
    });
    let d = run(&doc(&["2025-06-18"], json!([tool])));
    let errors: Vec<_> = d
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.pointer.as_str())
        .collect();
    let base = "/tools/0/interactionExamples/s/steps/0/request/requestedSchema";
    assert!(
        errors.contains(&format!("{base}/$schema").as_str()),
        "{d:#?}"
    );
    assert!(
        errors
            .iter()
            .any(|p| p.starts_with(&format!("{base}/properties/n"))),
        "{d:#?}"
    );
}

#[test]
fn examples_of_a_portable_legacy_schema_are_checked_completely() {
    // 2025-06-18 defines no schema dialect, but these keywords mean the same in every
    // draft: a conforming example passes without a warning, a breaking one is an error.
    let schema = json!({"type": "object", "properties": {"depth": {"type": "integer", "minimum": 1, "maximum": 40}}, "required": ["depth"]});
    let with_example = |depth: Value| {
        json!([{"name": "a", "inputSchema": schema,
            "examples": {"e": {"input": {"depth": depth}, "result": {"content": []}}}}])
    };
    let d = run(&doc(&["2025-06-18"], with_example(json!(12))));
    assert!(d.is_empty(), "{d:#?}");
    let d = run(&doc(&["2025-06-18"], with_example(json!(99))));
    let codes: Vec<_> = d.iter().map(|d| (d.severity, d.code)).collect();
    assert_eq!(
        codes,
        [(
            crate::diagnostic::Severity::Error,
            "tool-example-schema-mismatch"
        )],
        "{d:#?}"
    );
}

#[test]
fn examples_of_a_dialect_dependent_legacy_schema_warn_as_incomplete() {
    // `format` is an assertion in some drafts and an annotation in others.
    let d = run(&doc(
        &["2025-06-18"],
        json!([{"name": "a",
            "inputSchema": {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}},
            "examples": {"e": {"input": {"day": "2026-12-06"}, "result": {"content": []}}}}]),
    ));
    let codes: Vec<_> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["incomplete-tool-example-validation"], "{d:#?}");
}
