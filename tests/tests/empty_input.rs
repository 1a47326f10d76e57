//! The input type of a tool whose `inputSchema` has no properties implements `Default`
//! and constructs with `::new()` (`server_status` of the security fixture:
//! `{"type": "object"}`, a newtype of a JSON object).

#[allow(dead_code)]
mod games {
    mcpdesc::mcpdesc!(path = "fixtures/generator/security.mcpdesc.json");
}

use games::types::ServerStatusInput;

#[test]
fn a_propertyless_input_constructs_empty() {
    let input = ServerStatusInput::new();
    assert!(input.is_empty());
    assert_eq!(
        serde_json::to_value(ServerStatusInput::default()).unwrap(),
        serde_json::json!({})
    );
    assert_eq!(serde_json::to_value(&input).unwrap(), serde_json::json!({}));
}
