//! `mcpdesc::client::TypedClient`, the runtime half of generated clients, against a
//! scripted server on an in-memory pipe: the scope check before sending, input
//! validation, the output of a tool before MCP 2025-06-18 (from its text block), an
//! `input_required` answer, resource template expansion, and malformed results.

#![cfg(feature = "client")]

use std::sync::{Arc, Mutex};

use mcpdesc::client::{Options, TypedClient};
use mcpdesc::{CallError, ProtocolVersion, ResourceTemplateSpec, ToolSpec};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const V2025_03_26: &[ProtocolVersion] = &[ProtocolVersion::V2025_03_26];
const V2025_11_25: &[ProtocolVersion] = &[ProtocolVersion::V2025_11_25];

/// A tool with an output, served only in 2025-03-26.
const COUNT: ToolSpec = ToolSpec::new(
    "count",
    V2025_03_26,
    r#"{"name": "count", "inputSchema": {"type": "object", "properties": {"word": {"type": "string", "minLength": 1}}, "required": ["word"]},
        "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}"#,
);

/// The same tool in 2025-11-25.
const COUNT_NOW: ToolSpec = ToolSpec::new("count", V2025_11_25, COUNT.declaration);

const FILES: ResourceTemplateSpec = ResourceTemplateSpec::new(
    "file:///{dir}/{name}",
    &[],
    r#"{"uriTemplate": "file:///{dir}/{name}", "name": "files"}"#,
);

#[derive(Debug, Serialize)]
struct Word {
    word: String,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Count {
    n: i64,
}

#[derive(Serialize)]
struct FileVariables {
    dir: String,
    name: String,
}

/// A session in `version` with a server answering every other request with
/// `answer(method, params)`; the requests it gets are recorded.
async fn client(
    version: ProtocolVersion,
    answer: fn(&str, &Value) -> Value,
) -> (TypedClient, Arc<Mutex<Vec<Value>>>) {
    let (client_side, server_side) = tokio::io::duplex(1 << 16);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    tokio::spawn(async move {
        let (read, mut write) = tokio::io::split(server_side);
        let mut lines = BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let request: Value = serde_json::from_str(&line).unwrap();
            record.lock().unwrap().push(request.clone());
            let Some(id) = request.get("id") else {
                continue;
            };
            let method = request["method"].as_str().unwrap_or_default();
            let result = match method {
                "initialize" => json!({
                    "protocolVersion": request["params"]["protocolVersion"],
                    "capabilities": {"tools": {}, "resources": {}},
                    "serverInfo": {"name": "scripted", "version": "0"}}),
                _ => answer(method, &request["params"]),
            };
            let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
            if write
                .write_all(format!("{reply}\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
        }
    });
    let (read, write) = tokio::io::split(client_side);
    let session = Options::new()
        .protocol_versions(&[version])
        .io(read, write)
        .await
        .unwrap();
    (TypedClient::new(session), seen)
}

fn calls(seen: &Arc<Mutex<Vec<Value>>>, method: &str) -> Vec<Value> {
    seen.lock()
        .unwrap()
        .iter()
        .filter(|r| r["method"] == method)
        .cloned()
        .collect()
}

#[tokio::test]
async fn before_2025_06_18_the_output_comes_from_the_text_block() {
    let (client, _) = client(
        ProtocolVersion::V2025_03_26,
        |_, _| json!({"content": [{"type": "text", "text": "{\"n\": 3}"}]}),
    )
    .await;
    let count: Count = client
        .call_tool_output(
            &COUNT,
            Word {
                word: "chess".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(count, Count { n: 3 });
}

#[tokio::test]
async fn a_text_block_that_is_not_the_output_is_a_contract_violation() {
    let (client, _) = client(ProtocolVersion::V2025_03_26, |_, _| {
        json!({"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}, {"type": "text", "text": "three"}]})
    })
    .await;
    let err = client
        .call_tool_output::<_, Count>(
            &COUNT,
            Word {
                word: "chess".into(),
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.violations()[0].pointer, "/content/1/text");
}

#[tokio::test]
async fn outside_the_negotiated_version_nothing_is_sent() {
    let (client, seen) = client(ProtocolVersion::V2025_11_25, |_, _| json!({"content": []})).await;
    let err = client
        .call_tool_output::<_, Count>(
            &COUNT,
            Word {
                word: "chess".into(),
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::Unsupported { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "`count` is not available in MCP 2025-11-25: the description declares it for 2025-03-26 (nothing was sent)"
    );
    assert!(calls(&seen, "tools/call").is_empty());
}

#[tokio::test]
async fn invalid_input_is_refused_locally_with_its_pointer() {
    let (client, seen) = client(
        ProtocolVersion::V2025_11_25,
        |_, _| json!({"content": [], "structuredContent": {"n": 0}}),
    )
    .await;
    let err = client
        .call_tool_output::<_, Count>(
            &COUNT_NOW,
            Word {
                word: String::new(),
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::InvalidInput { .. }), "{err}");
    assert_eq!(err.violations()[0].pointer, "/word");
    assert!(calls(&seen, "tools/call").is_empty());

    // Off: sent as it is.
    let client = client.validate_inputs(false);
    let count: Count = client
        .call_tool_output(
            &COUNT_NOW,
            Word {
                word: String::new(),
            },
        )
        .await
        .unwrap();
    assert_eq!(count, Count { n: 0 });
    assert_eq!(
        calls(&seen, "tools/call")[0]["params"]["arguments"],
        json!({"word": ""})
    );
}

#[tokio::test]
async fn an_input_required_answer_is_its_own_error() {
    let (client, _) = client(ProtocolVersion::V2025_11_25, |_, _| {
        json!({"resultType": "input_required", "inputRequests": {"confirm": {"method": "elicitation/create"}}})
    })
    .await;
    let err = client
        .call_tool(&COUNT_NOW, Word { word: "x".into() })
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::InputRequired { .. }), "{err}");
}

#[tokio::test]
async fn a_result_that_is_not_a_tool_result_names_its_pointer() {
    let (client, _) = client(
        ProtocolVersion::V2025_11_25,
        |_, _| json!({"content": [{"type": "text"}]}),
    )
    .await;
    let err = client
        .call_tool(&COUNT_NOW, Word { word: "x".into() })
        .await
        .unwrap_err();
    assert!(matches!(err, CallError::Contract { .. }), "{err}");
    assert_eq!(err.violations()[0].pointer, "/content/0");
}

#[tokio::test]
async fn a_template_is_expanded_from_its_variables() {
    let (client, seen) = client(
        ProtocolVersion::V2025_11_25,
        |_, params| json!({"contents": [{"uri": params["uri"], "text": "hello"}]}),
    )
    .await;
    let result = client
        .read_resource_template(
            &FILES,
            FileVariables {
                dir: "my docs".into(),
                name: "a/b.txt".into(),
            },
        )
        .await
        .unwrap();
    assert_eq!(result.contents.len(), 1);
    assert_eq!(
        calls(&seen, "resources/read")[0]["params"]["uri"],
        "file:///my%20docs/a%2Fb.txt"
    );
}
