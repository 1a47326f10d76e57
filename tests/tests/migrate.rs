//! `mcpdesc migrate` on the repository's own 0.7 samples (`tests/migrate/`, see its
//! README for which migration-guide rule each covers), and `mcpdesc validate` on 0.7
//! documents. Every migrated document is validated again here, from the written text.

use std::path::{Path, PathBuf};

use mcpdesc_codegen::{Description, Limits};
use serde_json::Value;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrate")
        .join(name)
}

fn run(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["mcpdesc"];
    argv.extend_from_slice(args);
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A scratch directory of this test binary (cleaned before use).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("mcpdesc-migrate-test-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Validates migrated text and returns its value; panics with the diagnostics when it
/// is not valid.
fn valid(text: &str, name: &str) -> Value {
    let desc = Description::from_text(name, text.to_owned(), None, &Limits::default());
    assert!(
        desc.is_valid(),
        "{name} is not valid:\n{}\n{text}",
        desc.render_diagnostics()
    );
    desc.loaded.unwrap().value
}

/// Whether `err` has a diagnostic with `code` located at `line:column` with `pointer`.
fn reported(err: &str, code: &str, location: &str, pointer: &str) -> bool {
    err.split("\n\n").any(|block| {
        block.contains(&format!(":{location}\n"))
            && block.contains(&format!("= pointer: {pointer} (code: {code})"))
    })
}

#[test]
fn full_sample_to_0_9_0() {
    let input = sample("full.mcpdesc.json");
    let dir = scratch("full-0.9");
    let out = dir.join("bookshelf.mcpdesc.json");
    let (code, stdout, err) = run(&[
        "migrate",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty(), "the document goes to -o, not stdout");
    let text = std::fs::read_to_string(&out).unwrap();
    expectorate::assert_contents("migrate/expected/full.0.9.0.json", &text);
    let doc = valid(&text, "bookshelf.mcpdesc.json");

    // Format version and schema identity.
    assert_eq!(doc["mcpdesc"], "0.9.0");
    assert_eq!(
        doc["$schema"],
        "https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json"
    );
    // info.protocolVersion moved; every other Info field kept.
    assert_eq!(doc["protocolVersions"], serde_json::json!(["2025-11-25"]));
    assert!(doc["info"].get("protocolVersion").is_none());
    for member in [
        "title",
        "description",
        "id",
        "icons",
        "websiteUrl",
        "contact",
        "license",
    ] {
        assert!(doc["info"].get(member).is_some(), "info.{member} kept");
    }
    // Inline schemes: named once each (the bearer scheme is shared by the root and a
    // transport), alternatives with no scopes, `security: []` kept.
    let schemes = doc["securitySchemes"].as_object().unwrap();
    assert_eq!(
        schemes.keys().collect::<Vec<_>>(),
        ["bearer", "X-Bookshelf-Key", "oauth2"]
    );
    assert_eq!(
        doc["security"],
        serde_json::json!([{"bearer": []}, {"X-Bookshelf-Key": []}])
    );
    assert_eq!(
        doc["transports"][0]["security"],
        serde_json::json!([{"oauth2": []}, {"bearer": []}])
    );
    assert_eq!(doc["transports"][2]["security"], serde_json::json!([]));
    assert!(doc["transports"][1].get("security").is_none());
    // One Capabilities Object; members 0.8.0 does not define are dropped, with warnings.
    let caps = &doc["capabilities"][0];
    assert_eq!(doc["capabilities"].as_array().unwrap().len(), 1);
    assert_eq!(caps["tools"], serde_json::json!({"listChanged": true}));
    assert!(caps.get("bookshelfSync").is_none());
    assert!(caps.get("extensions").is_some() && caps.get("experimental").is_some());
    assert!(reported(
        &err,
        "capability-not-carried",
        "43:36",
        "/capabilities/tools/vendorHint"
    ));
    assert!(reported(
        &err,
        "capability-not-carried",
        "51:5",
        "/capabilities/bookshelfSync"
    ));
    // Empty collections removed, repeats removed, nothing else touched.
    assert!(doc["tools"][0].get("icons").is_none());
    assert!(doc["tools"][1].get("tags").is_none());
    assert!(doc["prompts"][1].get("arguments").is_none());
    assert_eq!(doc["prompts"][0]["tags"], serde_json::json!(["search"]));
    assert_eq!(
        doc["x-bookshelf-owner"],
        serde_json::json!({"team": "library"})
    );
    // Object roots declared; external references kept (and warned about).
    assert_eq!(doc["tools"][0]["inputSchema"]["type"], "object");
    assert_eq!(doc["tools"][0]["outputSchema"]["type"], "object");
    assert!(
        err.contains("unresolved-external-tool-schema-reference"),
        "{err}"
    );
    // Tool Annotations are closed in 0.9.0.
    assert!(doc["tools"][0]["annotations"].get("cacheHint").is_none());
    assert!(reported(
        &err,
        "annotation-not-carried",
        "75:92",
        "/tools/0/annotations/cacheHint"
    ));
    // Nothing is invented: no clientRequirements, components, instructions or scopes.
    for member in ["components", "instructions"] {
        assert!(doc.get(member).is_none());
    }
    assert!(doc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t.get("clientRequirements").is_none()));
    // The report lists the changes, located in the input.
    assert!(err.contains("migrated "), "{err}");
    assert!(
        err.contains("full.mcpdesc.json:9:5: /info/protocolVersion -> /protocolVersions"),
        "{err}"
    );
    assert!(
        err.contains("/security/1 -> /securitySchemes/X-Bookshelf-Key"),
        "{err}"
    );
}

#[test]
fn full_sample_to_0_8_0_keeps_open_annotations() {
    let input = sample("full.mcpdesc.json");
    let (code, stdout, err) = run(&["migrate", input.to_str().unwrap(), "--to", "0.8.0"]);
    assert_eq!(code, 0, "{err}");
    expectorate::assert_contents("migrate/expected/full.0.8.0.json", &stdout);
    let doc = valid(&stdout, "full.0.8.0.json");
    assert_eq!(doc["mcpdesc"], "0.8.0");
    assert_eq!(
        doc["$schema"],
        "https://mcpdesc.org/schema/mcp-description/0.8.0.json"
    );
    assert_eq!(doc["tools"][0]["annotations"]["cacheHint"], "1h");
}

#[test]
fn yaml_stays_yaml_and_fields_the_version_lacks_are_reported() {
    let input = sample("legacy-revision.mcpdesc.yaml");
    let (code, stdout, err) = run(&["migrate", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !stdout.trim_start().starts_with('{'),
        "YAML in, YAML out:\n{stdout}"
    );
    expectorate::assert_contents("migrate/expected/legacy-revision.0.9.0.yaml", &stdout);
    let doc = valid(&stdout, "legacy-revision.yaml");
    assert_eq!(doc["protocolVersions"], serde_json::json!(["2025-03-26"]));
    // Info is unscoped: its title and icons stay whatever the version.
    assert_eq!(doc["info"]["title"], "Weather");
    assert!(doc["info"].get("icons").is_some());
    for (location, pointer) in [
        ("16:3", "/capabilities/tasks"),
        ("20:5", "/tools/0/title"),
        ("25:7", "/tools/0/inputSchema/$schema"),
        ("36:5", "/tools/0/outputSchema"),
        ("43:5", "/tools/0/icons"),
        ("45:5", "/tools/0/_meta"),
        ("50:5", "/resources/0/title"),
        ("55:7", "/resources/0/annotations/lastModified"),
        ("58:5", "/prompts/0/title"),
        ("61:9", "/prompts/0/arguments/0/title"),
    ] {
        assert!(
            reported(&err, "field-not-carried", location, pointer),
            "{pointer}\n{err}"
        );
        let removed = Value::Null;
        assert_eq!(
            doc.pointer(pointer).unwrap_or(&removed),
            &removed,
            "{pointer} removed"
        );
    }
    // The block scalar survived as text.
    assert_eq!(
        doc["tools"][0]["description"],
        "Returns the forecast for a city.\nDays are counted from today.\n"
    );
}

#[test]
fn the_output_extension_chooses_the_format() {
    let input = sample("full.mcpdesc.json");
    let dir = scratch("format");
    let out = dir.join("bookshelf.mcpdesc.yaml");
    let (code, _, err) = run(&[
        "migrate",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.starts_with("$schema: https://mcpdesc.org/"), "{yaml}");
    let json = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("migrate/expected/full.0.9.0.json"),
    )
    .unwrap();
    let expected: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(valid(&yaml, "bookshelf.mcpdesc.yaml"), expected);
}

#[test]
fn places_for_the_author_stop_the_migration() {
    let input = sample("needs-author.mcpdesc.json");
    let dir = scratch("author");
    let out = dir.join("ledger.mcpdesc.json");
    let (code, _, err) = run(&[
        "migrate",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        !out.exists(),
        "nothing is written when the author must decide"
    );
    let expected = [
        ("no-protocol-version", "3:3", "/info"),
        (
            "incomplete-oauth-flow",
            "9:38",
            "/transports/0/security/0/flows/clientCredentials",
        ),
        (
            "incomplete-security-scheme",
            "10:9",
            "/transports/0/security/1",
        ),
        ("incomplete-security-scheme", "14:16", "/security/0"),
        ("missing-input-schema", "16:5", "/tools/0"),
    ];
    for (code, location, pointer) in expected {
        assert!(
            reported(&err, code, location, pointer),
            "{code} at {pointer}\n{err}"
        );
    }
    assert_eq!(err.matches("error[").count(), expected.len(), "{err}");
    assert!(err.contains("needs the author at 5 places"), "{err}");
    // The author is told what is needed, never given an invented value.
    assert!(err.contains("--protocol-version"), "{err}");
    assert!(err.contains("tokenUrl"), "{err}");
}

#[test]
fn problems_of_the_migrated_document_go_to_the_author_at_their_input_place() {
    let input = sample("needs-author-invalid.mcpdesc.yaml");
    let (code, stdout, err) = run(&["migrate", input.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(stdout.is_empty());
    for (code, location, pointer) in [
        (
            "streamable-http-before-2025-03-26",
            "7:5",
            "/transports/0/type",
        ),
        (
            "tool-input-schema-not-object",
            "14:7",
            "/tools/0/inputSchema/type",
        ),
        ("unknown-tag-reference", "17:9", "/tools/0/tags/1"),
    ] {
        let found = err.split("\n\n").any(|b| {
            b.contains(&format!(":{location}\n")) && b.contains(&format!("= pointer: {pointer} "))
        });
        assert!(found, "{code} at {pointer}\n{err}");
    }
    assert!(err.contains("needs the author at 3 places"), "{err}");
}

#[test]
fn the_protocol_version_comes_from_the_author_when_missing_or_unknown() {
    let missing = sample("no-revision.mcpdesc.yaml");
    let (code, _, err) = run(&["migrate", missing.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        reported(&err, "no-protocol-version", "2:1", "/info"),
        "{err}"
    );
    let (code, stdout, err) = run(&[
        "migrate",
        missing.to_str().unwrap(),
        "--protocol-version",
        "2025-06-18",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc = valid(&stdout, "no-revision.yaml");
    assert_eq!(doc["protocolVersions"], serde_json::json!(["2025-06-18"]));
    assert!(err.contains("from --protocol-version"), "{err}");

    let unknown = sample("unsupported-revision.mcpdesc.json");
    let (code, _, err) = run(&["migrate", unknown.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        reported(&err, "no-protocol-version", "3:49", "/info/protocolVersion"),
        "{err}"
    );
    let (code, stdout, err) = run(&[
        "migrate",
        unknown.to_str().unwrap(),
        "--protocol-version",
        "2025-11-25",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        valid(&stdout, "unsupported-revision.json")["protocolVersions"],
        serde_json::json!(["2025-11-25"])
    );
    assert!(
        reported(
            &err,
            "protocol-version-overridden",
            "3:49",
            "/info/protocolVersion"
        ),
        "{err}"
    );
}

#[test]
fn a_0_8_document_migrates_to_0_9_only() {
    let input = sample("from-0.8.mcpdesc.json");
    let (code, stdout, err) = run(&["migrate", input.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    expectorate::assert_contents("migrate/expected/from-0.8.0.9.0.json", &stdout);
    let doc = valid(&stdout, "from-0.8.json");
    assert_eq!(
        doc["tools"][0]["annotations"],
        serde_json::json!({"readOnlyHint": false})
    );
    assert!(reported(
        &err,
        "annotation-not-carried",
        "10:46",
        "/tools/0/annotations/audience"
    ));
    assert!(reported(
        &err,
        "annotation-not-carried",
        "10:68",
        "/tools/0/annotations/x-rank"
    ));

    let (code, _, err) = run(&["migrate", input.to_str().unwrap(), "--to", "0.8.0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("already MCP Description 0.8.0"), "{err}");
    let chess = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/chess/chess.mcpdesc.json");
    let (code, _, err) = run(&["migrate", chess.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn yaml_comments_are_reported_as_not_carried_over() {
    let dir = scratch("comments");
    let input = dir.join("commented.mcpdesc.yaml");
    let text = std::fs::read_to_string(sample("no-revision.mcpdesc.yaml"))
        .unwrap()
        .replace("  version: 0.1.0\n", "  version: 0.1.0 # bumped by hand\n");
    std::fs::write(&input, text).unwrap();
    let (code, _, err) = run(&[
        "migrate",
        input.to_str().unwrap(),
        "--protocol-version",
        "2025-06-18",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("commented.mcpdesc.yaml:4:18: the input's YAML comments are not carried over"),
        "{err}"
    );
}

#[test]
fn unreadable_and_unparseable_inputs_are_usage_errors() {
    let (code, _, err) = run(&["migrate", "/nonexistent/x.mcpdesc.json"]);
    assert_eq!(code, 2, "{err}");
    let dir = scratch("broken");
    let input = dir.join("broken.mcpdesc.json");
    std::fs::write(&input, "{\"mcpdesc\": \"0.7.0\",").unwrap();
    let (code, _, err) = run(&["migrate", input.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be parsed"), "{err}");
}

/// `mcpdesc validate` on a 0.7 document: the version error first, telling the user to
/// migrate; errors that only restate the old format are counted, not shown; real
/// problems of the document are still shown.
#[test]
fn validate_puts_the_0_7_version_error_first() {
    for name in [
        "full.mcpdesc.json",
        "legacy-revision.mcpdesc.yaml",
        "needs-author.mcpdesc.json",
        "needs-author-invalid.mcpdesc.yaml",
    ] {
        let input = sample(name);
        let (code, out, _) = run(&["validate", "--format", "json", input.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {out}");
        let report: Value = serde_json::from_str(&out).unwrap();
        let diagnostics = report[0]["diagnostics"].as_array().unwrap();
        let first = &diagnostics[0];
        assert_eq!(first["code"], "legacy-mcpdesc-version", "{name}: {out}");
        assert_eq!(first["pointer"], "/mcpdesc");
        let message = first["message"].as_str().unwrap();
        assert!(message.contains("mcpdesc migrate"), "{message}");
        for d in &diagnostics[1..] {
            let p = d["pointer"].as_str().unwrap();
            assert!(
                !p.starts_with("/security")
                    && !p.starts_with("/capabilities")
                    && !p.starts_with("/info/protocolVersion"),
                "{name}: fallout shown: {d}"
            );
            assert_ne!(d["code"], "empty-collection", "{name}: {d}");
        }
    }
    // The full sample's only problems are the format's: just the version error remains.
    let (_, out, _) = run(&["validate", sample("full.mcpdesc.json").to_str().unwrap()]);
    assert!(out.contains("invalid (1 error, 0 warnings)"), "{out}");
    assert!(
        out.contains("follow-on errors caused only by the 0.7 format are not shown"),
        "{out}"
    );
    // A real problem stays visible.
    let (_, out, _) = run(&[
        "validate",
        sample("needs-author-invalid.mcpdesc.yaml")
            .to_str()
            .unwrap(),
    ]);
    assert!(out.contains("unknown-tag-reference"), "{out}");
}
