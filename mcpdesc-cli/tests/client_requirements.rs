//! `clientRequirements` enforced on the wire: `mcpdesc serve-mock` (the runtime's
//! router) refuses a call of a tool whose requirements the client's declared
//! capabilities do not meet, before anything runs: `-32021` with
//! `data.requiredCapabilities` in MCP 2026-07-28, `-32602` with the same data before;
//! a client that declares them is served; the typed client refuses such a call
//! locally (`CallError::MissingClientCapability`, nothing sent).

use std::path::{Path, PathBuf};

use mcpdesc::client::{Options, RequestError, Session, TypedClient};
use mcpdesc::{CallError, ProtocolVersion, ToolSpec};
use serde_json::{json, Value};

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

/// The fixture for `version`: `confirm` requires `elicitation.form`, `free` nothing.
fn fixture(version: ProtocolVersion) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/fixtures/requirements/requirements-{}.mcpdesc.json",
        version.as_str()
    ))
}

async fn connect(version: ProtocolVersion, capabilities: Option<Value>) -> Session {
    let mut command = tokio::process::Command::new(MCPDESC);
    command.arg("serve-mock").arg(fixture(version));
    let mut options = Options::new().protocol_versions(&[version]);
    if let Some(capabilities) = capabilities {
        options = options.client_capabilities(capabilities);
    }
    options.stdio(command).await.unwrap()
}

const CONFIRM: ToolSpec = ToolSpec::new(
    "confirm",
    &[],
    r#"{"name": "confirm", "inputSchema": {"type": "object"}, "clientRequirements": {"elicitation": {"form": {}}}}"#,
);

#[tokio::test]
async fn a_call_without_the_required_capability_is_refused_per_version() {
    for (version, code) in [
        (ProtocolVersion::V2025_11_25, -32602),
        (ProtocolVersion::V2026_07_28, -32021),
    ] {
        let session = connect(version, None).await;
        assert_eq!(session.client_capabilities(), Some(&json!({})));
        match session.call_tool("confirm", json!({})).await {
            Err(RequestError::Protocol { error, .. }) => {
                assert_eq!(error.code, code, "{version}: {error:?}");
                assert_eq!(
                    error.data,
                    Some(json!({"requiredCapabilities": {"elicitation": {"form": {}}}})),
                    "{version}"
                );
                assert!(
                    error
                        .message
                        .contains("tool `confirm` requires the client capability elicitation.form"),
                    "{version}: {}",
                    error.message
                );
            }
            other => panic!("{version}: expected a protocol error, got {other:?}"),
        }
        // A tool without requirements is served to the same client.
        let free = session.call_tool("free", json!({})).await.unwrap();
        assert_eq!(free["content"][0]["text"], "free", "{version}");

        // The typed client refuses locally, naming the capability.
        let typed = TypedClient::new(session.clone());
        match typed.call_tool(&CONFIRM, json!({})).await {
            Err(CallError::MissingClientCapability {
                name,
                missing,
                required,
            }) => {
                assert_eq!(
                    (name.as_str(), missing.as_str()),
                    ("confirm", "elicitation.form")
                );
                assert_eq!(*required, json!({"elicitation": {"form": {}}}));
            }
            other => panic!("{version}: expected a local refusal, got {other:?}"),
        }
        session.close().await;
    }
}

#[tokio::test]
async fn a_client_that_declares_the_capability_is_served() {
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        // A bare `elicitation` capability means form mode.
        for declared in [
            json!({"elicitation": {"form": {}}}),
            json!({"elicitation": {}}),
        ] {
            let session = connect(version, Some(declared.clone())).await;
            let result = session.call_tool("confirm", json!({})).await.unwrap();
            assert_eq!(
                result["content"][0]["text"], "confirmed",
                "{version} {declared}"
            );
            let typed = TypedClient::new(session.clone());
            let result = typed.call_tool(&CONFIRM, json!({})).await.unwrap();
            assert!(!result.is_error_result(), "{version} {declared}");
            session.close().await;
        }
    }
}

#[tokio::test]
async fn capabilities_that_are_not_mcp_are_refused_when_connecting() {
    let mut command = tokio::process::Command::new(MCPDESC);
    command
        .arg("serve-mock")
        .arg(fixture(ProtocolVersion::V2025_11_25));
    let err = Options::new()
        .client_capabilities(json!({"roots": "yes"}))
        .stdio(command)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("are not MCP client capabilities"),
        "{err}"
    );
}
