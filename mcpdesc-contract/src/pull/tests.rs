use serde_json::{json, Value};

use super::*;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::source::SourceMap;

fn observed(version: ProtocolVersion, tools: Vec<Value>) -> Observed {
    Observed {
        protocol_version: version,
        handshake: json!({
            "protocolVersion": version.as_str(),
            "serverInfo": {"name": "scripted", "version": "1.2.3"},
            "capabilities": {"tools": {"listChanged": true}}
        }),
        tools: Some(tools),
        prompts: None,
        resources: None,
        resource_templates: None,
    }
}

fn pull(observed: &Observed) -> Pulled {
    let pulled = describe(observed).unwrap_or_else(|e| panic!("{e:?}"));
    let validation = mcpdesc_description::validate::validate(&pulled.value, &SourceMap::default());
    assert!(validation.is_valid(), "{:#?}", validation.diagnostics);
    pulled
}

fn codes(pulled: &Pulled) -> Vec<(&'static str, String)> {
    pulled
        .warnings
        .iter()
        .map(|w| (w.code, w.pointer.to_string()))
        .collect()
}

#[test]
fn the_handshake_goes_to_info_capabilities_instructions_and_versions() {
    let mut seen = observed(ProtocolVersion::V2025_06_18, vec![]);
    seen.handshake = json!({
        "protocolVersion": "2025-06-18",
        "serverInfo": {"name": "notes", "version": "2.0.0", "title": "Notes",
                       "websiteUrl": "https://example.com", "vendor": "acme"},
        "capabilities": {"tools": {}, "logging": {}, "completions": {}, "sampling": {}},
        "instructions": "Search before writing."
    });
    let pulled = pull(&seen);
    assert_eq!(
        pulled.value,
        json!({
            "$schema": "https://mcpdesc.org/schema/mcp-description/0.9.0-rc.3.json",
            "mcpdesc": "0.9.0",
            "info": {"name": "notes", "version": "2.0.0", "title": "Notes",
                     "websiteUrl": "https://example.com"},
            "protocolVersions": ["2025-06-18"],
            "instructions": "Search before writing.",
            "capabilities": [{"tools": {}, "logging": {}, "completions": {}}]
        })
    );
    assert_eq!(
        codes(&pulled),
        [
            ("unknown-member", "/serverInfo/vendor".to_owned()),
            ("unknown-member", "/capabilities/sampling".to_owned())
        ]
    );
    assert!(pulled.warnings[0].message.contains("`vendor`"));
}

#[test]
fn tools_keep_every_member_the_format_has_a_place_for() {
    let tool = json!({
        "name": "search",
        "title": "Search",
        "description": "Full-text search",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        "outputSchema": {"type": "object", "properties": {"hits": {"type": "integer"}}},
        "annotations": {"readOnlyHint": true, "openWorldHint": false},
        "execution": {"taskSupport": "optional"},
        "icons": [{"src": "https://example.com/s.png", "mimeType": "image/png"}],
        "_meta": {"example.com/build": "7"},
        "x-vendor": 1
    });
    let pulled = pull(&observed(ProtocolVersion::V2025_11_25, vec![tool.clone()]));
    assert_eq!(pulled.value["tools"], json!([tool]));
    assert!(pulled.warnings.is_empty(), "{:?}", pulled.warnings);
}

#[test]
fn unknown_members_duplicates_and_non_objects_are_dropped_with_warnings() {
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![
            json!({"name": "a", "inputSchema": {"type": "object"}, "examples": [1], "price": 3}),
            json!("not a tool"),
            json!({"name": "a", "inputSchema": {"type": "object", "properties": {}}}),
            json!({"inputSchema": {"type": "object"}}),
            json!({"name": "b", "inputSchema": {"type": "object"}}),
        ],
    ));
    assert_eq!(
        pulled.value["tools"],
        json!([{"name": "a", "inputSchema": {"type": "object"}},
               {"name": "b", "inputSchema": {"type": "object"}}])
    );
    assert_eq!(
        codes(&pulled),
        [
            ("unknown-member", "/tools/0/examples".to_owned()),
            ("unknown-member", "/tools/0/price".to_owned()),
            ("not-an-object", "/tools/1".to_owned()),
            ("duplicate", "/tools/2".to_owned()),
            ("missing-identity", "/tools/3/name".to_owned()),
        ]
    );
    assert!(pulled.warnings[3]
        .message
        .starts_with("tool \"a\" is listed again"));
}

#[test]
fn an_output_schema_not_of_type_object_is_dropped() {
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![
            json!({"name": "n", "inputSchema": {"type": "object"}, "outputSchema": {"type": "number"}}),
            json!({"name": "s", "inputSchema": {"type": "object"}, "outputSchema": "text"}),
        ],
    ));
    assert_eq!(pulled.value["tools"][0].get("outputSchema"), None);
    assert_eq!(pulled.value["tools"][1].get("outputSchema"), None);
    assert_eq!(
        codes(&pulled),
        [
            (
                "output-schema-not-object",
                "/tools/0/outputSchema".to_owned()
            ),
            (
                "output-schema-not-object",
                "/tools/1/outputSchema".to_owned()
            ),
        ]
    );
    assert!(
        pulled.warnings[0]
            .message
            .starts_with("tool \"n\": `outputSchema` is of type \"number\""),
        "{}",
        pulled.warnings[0].message
    );
}

#[test]
fn an_invalid_input_schema_becomes_the_open_schema() {
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![
            json!({"name": "ok", "inputSchema": {"type": "object"}}),
            json!({"name": "bad", "inputSchema": {"type": "object", "required": "q"}}),
            json!({"name": "none"}),
        ],
    ));
    assert_eq!(
        pulled.value["tools"][1]["inputSchema"],
        json!({"type": "object"})
    );
    assert_eq!(
        pulled.value["tools"][2]["inputSchema"],
        json!({"type": "object"})
    );
    let found = codes(&pulled);
    assert!(
        found.contains(&("input-schema-replaced", "/tools/1/inputSchema".to_owned())),
        "{found:?}"
    );
    assert!(
        found.contains(&("input-schema-replaced", "/tools/2/inputSchema".to_owned())),
        "{found:?}"
    );
    let bad = pulled
        .warnings
        .iter()
        .find(|w| w.pointer.as_str() == "/tools/1/inputSchema")
        .unwrap();
    assert!(
        bad.message
            .starts_with("tool \"bad\": `inputSchema` is not a valid schema ("),
        "{}",
        bad.message
    );
}

#[test]
fn members_the_negotiated_version_lacks_are_dropped_by_the_validator_and_named() {
    // MCP 2025-03-26 has no tool `title`, `outputSchema`, `_meta` or icons.
    let pulled = pull(&observed(
        ProtocolVersion::V2025_03_26,
        vec![
            json!({"name": "first", "inputSchema": {"type": "object"}}),
            json!({"name": "t", "title": "T", "inputSchema": {"type": "object"},
                   "outputSchema": {"type": "object"}, "_meta": {"a/b": 1}}),
        ],
    ));
    assert_eq!(
        pulled.value["tools"][1],
        json!({"name": "t", "inputSchema": {"type": "object"}})
    );
    let mut found = codes(&pulled);
    found.sort();
    assert_eq!(
        found,
        [
            ("invalid-member", "/tools/1/_meta".to_owned()),
            ("invalid-member", "/tools/1/outputSchema".to_owned()),
            ("invalid-member", "/tools/1/title".to_owned()),
            // The pulled description's own validation warning, passed on.
            (
                "legacy-protocol-validation-incomplete",
                "/protocolVersions".to_owned()
            ),
        ]
    );
    let last = pulled.warnings.last().unwrap();
    assert_eq!(last.source, Source::Description);
    for w in &pulled.warnings[..3] {
        assert!(w.message.starts_with("tool \"t\": `"), "{}", w.message);
        assert_eq!(w.source, Source::Listing(Kind::Tool));
    }
}

#[test]
fn pointers_name_the_listed_item_after_earlier_ones_were_dropped() {
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![
            json!(7),
            json!({"name": "x", "inputSchema": {"type": "object"},
                   "icons": [{"src": "https://example.com/a.png"}, {"src": "not a uri"}]}),
        ],
    ));
    assert_eq!(
        pulled.value["tools"][0]["icons"],
        json!([{"src": "https://example.com/a.png"}])
    );
    assert_eq!(
        codes(&pulled),
        [
            ("not-an-object", "/tools/0".to_owned()),
            ("invalid-member", "/tools/1/icons/1".to_owned()),
        ]
    );
    assert!(pulled.warnings[1]
        .render()
        .contains("--> tools/list (every page): /tools/1/icons/1"));
}

#[test]
fn prompts_resources_and_templates_go_to_their_collections() {
    let mut seen = observed(ProtocolVersion::V2025_11_25, vec![]);
    seen.tools = None;
    seen.handshake["capabilities"] = json!({"prompts": {}, "resources": {"subscribe": true}});
    seen.prompts = Some(vec![json!({"name": "review", "description": "Review code",
        "arguments": [{"name": "code", "required": true, "schema": "x"}]})]);
    seen.resources = Some(vec![
        json!({"uri": "file:///a.txt", "name": "a", "mimeType": "text/plain", "size": 3}),
        json!({"uri": "file:///a.txt", "name": "again"}),
    ]);
    seen.resource_templates = Some(vec![
        json!({"uriTemplate": "file:///{path}", "name": "files",
        "annotations": {"audience": ["user"]}}),
    ]);
    let pulled = pull(&seen);
    assert_eq!(pulled.value.get("tools"), None);
    assert_eq!(
        pulled.value["prompts"],
        json!([{"name": "review", "description": "Review code",
                "arguments": [{"name": "code", "required": true}]}])
    );
    assert_eq!(pulled.value["resources"].as_array().unwrap().len(), 1);
    assert_eq!(pulled.value["resourceTemplates"][0]["name"], "files");
    assert_eq!(
        codes(&pulled),
        [
            ("unknown-member", "/prompts/0/arguments/0/schema".to_owned()),
            ("duplicate", "/resources/1".to_owned()),
        ]
    );
    assert!(pulled.warnings[0]
        .message
        .starts_with("prompt \"review\", argument \"code\": "));
}

#[test]
fn a_missing_server_info_is_written_as_unknown_with_warnings() {
    let mut seen = observed(ProtocolVersion::V2025_11_25, vec![]);
    seen.handshake = json!({"protocolVersion": "2025-11-25", "capabilities": {}});
    let pulled = pull(&seen);
    assert_eq!(
        pulled.value["info"],
        json!({"name": "unknown", "version": "unknown"})
    );
    assert_eq!(
        codes(&pulled),
        [
            ("missing-server-info", "/serverInfo/name".to_owned()),
            ("missing-server-info", "/serverInfo/version".to_owned()),
        ]
    );
}

#[test]
fn a_declaration_deeper_than_the_loader_reads_is_dropped() {
    let mut schema = json!({"type": "object"});
    for _ in 0..120 {
        schema = json!({"type": "object", "properties": {"p": schema}});
    }
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![
            json!({"name": "deep", "inputSchema": schema}),
            json!({"name": "flat", "inputSchema": {"type": "object"}}),
        ],
    ));
    assert_eq!(
        pulled.value["tools"],
        json!([{"name": "flat", "inputSchema": {"type": "object"}}])
    );
    assert_eq!(codes(&pulled), [("too-deep", "/tools/0".to_owned())]);
}

#[test]
fn every_invalid_tool_gone_leaves_no_empty_collection() {
    let pulled = pull(&observed(
        ProtocolVersion::V2025_11_25,
        vec![json!({"name": 5, "inputSchema": {}})],
    ));
    assert_eq!(pulled.value.get("tools"), None);
}

#[test]
fn the_discover_result_of_2026_carries_the_server_info_in_meta() {
    let mut seen = observed(ProtocolVersion::V2026_07_28, vec![]);
    seen.handshake = json!({
        "resultType": "complete",
        "supportedVersions": ["2025-11-25", "2026-07-28"],
        "capabilities": {"tools": {}},
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "eras", "version": "1.0.0", "x": 1}}
    });
    let pulled = pull(&seen);
    assert_eq!(
        pulled.value["info"],
        json!({"name": "eras", "version": "1.0.0"})
    );
    assert_eq!(pulled.value["protocolVersions"], json!(["2026-07-28"]));
    assert_eq!(
        codes(&pulled),
        [(
            "unknown-member",
            "/_meta/io.modelcontextprotocol~1serverInfo/x".to_owned()
        )]
    );
}

#[test]
fn the_validator_decides_the_rest_at_the_smallest_part() {
    let mut seen = observed(
        ProtocolVersion::V2025_11_25,
        vec![json!({"name": "t", "inputSchema": {"type": "object"},
                    "annotations": {"readOnlyHint": true, "audience": ["user"]},
                    "execution": {"taskSupport": "sometimes"}})],
    );
    seen.handshake["capabilities"]["resources"] = json!({});
    seen.resources = Some(vec![
        json!({"uri": "mem://bad", "name": 5}),
        json!({"uri": "mem://ok", "name": "ok"}),
    ]);
    let pulled = pull(&seen);
    assert_eq!(
        pulled.value["tools"][0],
        json!({"name": "t", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}})
    );
    assert_eq!(
        pulled.value["resources"],
        json!([{"uri": "mem://ok", "name": "ok"}])
    );
    let mut found = codes(&pulled);
    found.sort();
    assert_eq!(
        found,
        [
            ("invalid-item", "/resources/0".to_owned()),
            ("invalid-member", "/tools/0/annotations/audience".to_owned()),
            ("invalid-member", "/tools/0/execution".to_owned()),
        ]
    );
    let resource = pulled
        .warnings
        .iter()
        .find(|w| w.code == "invalid-item")
        .unwrap();
    assert!(
        resource
            .message
            .starts_with("resource \"mem://bad\" dropped: "),
        "{}",
        resource.message
    );
    assert_eq!(resource.source, Source::Listing(Kind::Resource));
}
