//! The `build.rs` front end end to end: `build.rs` generates `drift/v1.mcpdesc.json`
//! into `$OUT_DIR/drift_v1.rs` with `mcpdesc_codegen::Builder`, and the implementation
//! the drift cases use (`drift/implementation.rs`) serves it.

use futures::executor::block_on;
use mcpdesc::ProtocolVersion;
use serde_json::json;

mod drift {
    mcpdesc::include_generated!("drift_v1");
}

include!("../drift/implementation.rs");

#[test]
fn the_generated_router_serves_the_implementation() {
    let router = drift::router(Notes::default());
    let cx = || mcpdesc::Context::new(ProtocolVersion::V2025_11_25);
    let added =
        block_on(router.call_tool("add_note", Some(json!({"title": "t", "body": "b"})), cx()))
            .unwrap();
    assert_eq!(added.structured_content, Some(json!({"id": 0})));
    let got = block_on(router.call_tool("get_note", Some(json!({"id": 0})), cx())).unwrap();
    assert_eq!(got.structured_content, Some(json!({"title": "t"})));
    // The router checks arguments against the inputSchema of v1.
    let bad = block_on(router.call_tool("add_note", Some(json!({"heading": "t"})), cx())).unwrap();
    assert_eq!(bad.is_error, Some(true));
}

#[test]
fn the_file_is_the_generator_output() {
    let written = include_str!(concat!(env!("OUT_DIR"), "/drift_v1.rs"));
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("drift/v1.mcpdesc.json");
    let desc = mcpdesc_codegen::Description::from_path(&path, &Default::default()).unwrap();
    let settings = mcpdesc_codegen::Settings::new().tests(false);
    assert_eq!(
        written,
        mcpdesc_codegen::generate(&desc, &settings).unwrap().code
    );
}
