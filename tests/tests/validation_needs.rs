//! The generator's copy of the list of keywords only the full validator checks
//! (`mcpdesc_codegen::generate::validation`) agrees with the runtime's
//! (`mcpdesc/src/schema/needs.rs`): on every tool schema of the corpus and of the
//! hostile cases, and on schemas written to hit each keyword.

use mcpdesc::__private::full_validator_keyword as runtime;
use mcpdesc_codegen::generate::validation::full_validator_keyword as generator;
use serde_json::{json, Value};

fn agree(schema: &Value, seen: &mut usize) {
    assert_eq!(generator(schema), runtime(schema), "schema {schema}");
    *seen += 1;
}

fn tool_schemas(doc: &Value) -> Vec<Value> {
    let Some(tools) = doc.get("tools").and_then(Value::as_array) else {
        return Vec::new();
    };
    tools
        .iter()
        .flat_map(|t| ["inputSchema", "outputSchema"].map(|m| t.get(m).cloned()))
        .flatten()
        .collect()
}

#[test]
fn the_two_lists_agree_on_every_corpus_schema() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    let mut needing = 0;
    for dir in [
        "hostile",
        "../examples/chess",
        "../examples/conformance-server",
        "../benches/runtime",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if !path.to_string_lossy().ends_with(".mcpdesc.json") {
                continue;
            }
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or(Value::Null);
            for schema in tool_schemas(&doc) {
                needing += usize::from(runtime(&schema).is_some());
                agree(&schema, &mut seen);
            }
        }
    }
    assert!(seen >= 50, "only {seen} schemas compared");
    assert!(needing >= 1, "no corpus schema needs the full validator");
}

#[test]
fn the_two_lists_agree_keyword_by_keyword() {
    let mut seen = 0;
    for keyword in [
        "pattern",
        "patternProperties",
        "propertyNames",
        "multipleOf",
        "if",
        "then",
        "else",
        "contains",
        "minContains",
        "maxContains",
        "prefixItems",
        "unevaluatedItems",
        "unevaluatedProperties",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "additionalItems",
        "$id",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "$recursiveRef",
        "$recursiveAnchor",
        "$vocabulary",
        "format",
        "contentMediaType",
        "minLength",
        "enum",
    ] {
        let nested = json!({"properties": {"a": {"items": {keyword: "x"}}}});
        agree(&nested, &mut seen);
        let draft7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "anyOf": [{keyword: "x"}]});
        agree(&draft7, &mut seen);
    }
    for reference in [
        "#",
        "#/$defs/a",
        "#/$defs/a%20b",
        "other.json#/a",
        "#anchor",
    ] {
        agree(&json!({"$ref": reference, "$defs": {"a": {}}}), &mut seen);
        agree(
            &json!({"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"p": {"$ref": reference, "type": "string"}}}),
            &mut seen,
        );
    }
    agree(&json!({"items": [{"type": "string"}]}), &mut seen);
    agree(&json!({"x-vendor": {"pattern": "^a$"}}), &mut seen);
    assert!(seen > 60);
}
