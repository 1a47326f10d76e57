//! The npm reference servers pinned in `tests/e2e/package.json` match the shared
//! real-world descriptions they were recorded from: started over stdio by the
//! TypeScript MCP client, each answers `initialize` with the description's server name
//! and `tools/list` with exactly the tools a server of the description lists in MCP
//! 2025-11-25 (the projection `mcpdesc serve-mock` serves). No tool is called.
//!
//! This guards the pins that other tests use to run real servers (`prereq::npm_package`):
//! a version whose tools drifted from the description fails here first. It needs
//! Node.js and the shared corpus (`tests/prereq.rs`).

#[path = "../e2e/harness.rs"]
mod harness;

use harness::prereq;
use mcpdesc::ProtocolVersion;
use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Limits};
use serde_json::json;

/// The package, the arguments its `dist/index.js` needs for stdio, and the description.
const SERVERS: [(&str, &[&str], &str); 2] = [
    (
        "@modelcontextprotocol/server-memory",
        &[],
        "real-world/memory.mcpdesc.json",
    ),
    // `server-everything` picks its transport from its first argument.
    (
        "@modelcontextprotocol/server-everything",
        &["stdio"],
        "real-world/everything.mcpdesc.json",
    ),
];

#[test]
fn pinned_npm_servers_list_the_tools_of_their_descriptions() {
    const TEST: &str =
        "mcpdesc-tests/npm_servers::pinned_npm_servers_list_the_tools_of_their_descriptions";
    if !harness::client_ready(TEST) {
        return;
    }
    let Some(shared) = prereq::shared_conformance(TEST) else {
        return;
    };
    for (package, args, description) in SERVERS {
        let Some(dir) = prereq::npm_package(TEST, package) else {
            return;
        };
        let desc = Description::from_path(&shared.join(description), &Limits::default()).unwrap();
        assert!(desc.is_valid(), "{}", desc.render_diagnostics());
        let expected = mock_router(&desc, None, &[])
            .unwrap()
            .list_tools(ProtocolVersion::V2025_11_25);
        assert!(!expected.is_empty(), "{description} lists no tools");
        let doc = &desc.validation.as_ref().unwrap().resolution.value;
        let mut argv = vec![dir.join("dist/index.js").to_string_lossy().into_owned()];
        argv.extend(args.iter().map(|a| a.to_string()));
        let plan = json!({
            "command": "node",
            "args": argv,
            "serverName": doc["info"]["name"],
            "expectedTools": expected,
            "calls": [],
        });
        let stdout = harness::run_client(package, &plan);
        assert!(
            stdout.contains("ok   tools/list equals the router's projection"),
            "{package}: {stdout}"
        );
    }
}
