//! The mapping table of `docs/generated-code.md` ("JSON Schema constructs and their Rust
//! form") is checked against the generator: every row's schema becomes the property `p`
//! of a tool's schema, and every code span of its Rust column must appear in the
//! generated `types` module (paths shortened as the table writes them); the notes column
//! is prose. Generation only, no compilation.

use mcpdesc_codegen::{Description, Limits, Settings};
use serde_json::{json, Map, Value};

/// The section of the page that holds the table, and the table's header row.
const SECTION: &str = "## JSON Schema constructs and their Rust form";
const HEADER: &str = "| schema of the property `p` | Rust | notes |";

/// One row of the table.
#[derive(Debug)]
struct Row {
    /// The row as written, for messages.
    line: String,
    /// The property schema (the cell's first code span).
    schema: Value,
    /// `p` is listed in `required` unless the cell says `optional`.
    required: bool,
    /// The schema is the tool's `outputSchema`'s (the cell says `outputSchema`).
    output: bool,
    /// The Rust column's code spans.
    claims: Vec<String>,
}

/// The code spans of a Markdown table cell.
fn spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The cells of a table row (no escaped `|` in this table).
fn cells(line: &str) -> Vec<&str> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split('|').map(str::trim).collect()
}

/// The rows of the mapping table.
fn rows(page: &str) -> Vec<Row> {
    let section = &page[page.find(SECTION).expect("the mapping section")..];
    let table = &section[section.find(HEADER).expect("the mapping table's header")..];
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            let cells = cells(line);
            assert!(cells.len() >= 2, "row with fewer than 2 cells: {line}");
            let schema_spans = spans(cells[0]);
            let schema = schema_spans
                .first()
                .and_then(|s| serde_json::from_str(s).ok())
                .unwrap_or_else(|| panic!("the first code span is no JSON schema: {line}"));
            // What follows the schema's code span says where it is.
            let rest = cells[0].splitn(3, '`').nth(2).unwrap_or("");
            let claims = spans(cells[1]);
            assert!(!claims.is_empty(), "a row with no Rust code span: {line}");
            Row {
                line: line.to_owned(),
                schema,
                required: !rest.contains("optional"),
                output: rest.contains("outputSchema"),
                claims,
            }
        })
        .collect()
}

/// The description with one tool `x` whose input (or output) schema has the row's
/// property `p`; a top-level `$defs` of the row's schema moves to that schema's root.
fn description(row: &Row) -> String {
    let mut property = row.schema.clone();
    let defs = property.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), json!({ "p": property }));
    if row.required {
        schema.insert("required".into(), json!(["p"]));
    }
    if let Some(defs) = defs {
        schema.insert("$defs".into(), defs);
    }
    let mut tool = json!({ "name": "x", "inputSchema": { "type": "object" } });
    let key = if row.output {
        "outputSchema"
    } else {
        "inputSchema"
    };
    tool[key] = Value::Object(schema);
    json!({
        "mcpdesc": "0.9.0",
        "info": { "name": "docs-mapping", "version": "1.0.0" },
        "protocolVersions": ["2025-11-25"],
        "tools": [tool],
    })
    .to_string()
}

/// The generated `types` module, with whitespace runs collapsed and the paths the table
/// shortens (`::std::option::Option` is `Option`, `::serde_json::Value` is
/// `serde_json::Value`).
fn types_module(code: &str) -> String {
    let start = code.find("pub mod types {").expect("a types module");
    let mut depth = 0usize;
    let mut end = code.len();
    for (i, c) in code[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = start + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    normalize(&code[start..end])
}

/// Whitespace collapsed, the standard library's paths shortened.
fn normalize(code: &str) -> String {
    let mut out = code.split_whitespace().collect::<Vec<_>>().join(" ");
    for path in [
        "::std::option::",
        "::std::string::",
        "::std::collections::",
        "::std::num::",
        "::std::vec::",
        "::std::boxed::",
    ] {
        out = out.replace(path, "");
    }
    out.replace("::serde_json::", "serde_json::")
        .replace("::serde::", "serde::")
}

/// The normalized types module without its lint preamble and its `error` module.
fn own_types(types: &str) -> &str {
    let start = types
        .find("#![allow(unused_qualifications)]")
        .map_or(0, |i| i + "#![allow(unused_qualifications)]".len());
    let end = types.find("/// Error types.").unwrap_or(types.len());
    &types[start..end.max(start)]
}

#[test]
fn every_row_of_the_mapping_table_holds() {
    let page = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../docs/generated-code.md"
    ))
    .expect("docs/generated-code.md");
    let rows = rows(&page);
    assert!(rows.len() >= 20, "only {} rows found", rows.len());
    let print = std::env::var_os("DOCS_MAPPING_PRINT").is_some();
    let mut failures = Vec::new();
    for row in &rows {
        let desc = Description::from_text(
            "docs-mapping.mcpdesc.json",
            description(row),
            None,
            &Limits::default(),
        );
        assert!(
            desc.is_valid(),
            "{}\n{}",
            row.line,
            desc.render_diagnostics()
        );
        let generated = mcpdesc_codegen::generate(&desc, &Settings::default())
            .unwrap_or_else(|e| panic!("{}: {e:?}", row.line));
        let types = types_module(&generated.code);
        if print {
            eprintln!("{}\n  {}\n", row.line, own_types(&types));
        }
        let missing: Vec<&String> = row
            .claims
            .iter()
            .filter(|claim| !types.contains(&normalize(claim)))
            .collect();
        if !missing.is_empty() {
            failures.push(format!(
                "{}\n  not in the generated types: {missing:?}\n  types: {}",
                row.line,
                own_types(&types)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
