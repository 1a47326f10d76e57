//! The real-world `memory` MCP server (a knowledge graph of entities, relations and
//! observations, kept in memory), served over stdio. Its contract is
//! `memory.mcpdesc.yaml`; the `mcpdesc!` macro generates the types, one trait per tool
//! and `router`, and this file implements the traits.
//!
//! ```text
//! cargo run -p memory-server-macro   # speaks MCP on stdin/stdout
//! ```

mod graph;
mod memory;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let router = memory::router(graph::KnowledgeGraph::default());
    if let Err(e) = mcpdesc::serve_stdio(router).await {
        eprintln!("memory-server: {e}");
        std::process::exit(1);
    }
}

/// The shared corpus and Node.js for the tests (`tests/prereq.rs` of the repository).
#[cfg(test)]
#[path = "../../../tests/prereq.rs"]
mod prereq;

#[cfg(test)]
mod tests {
    use futures::executor::block_on;
    use mcpdesc::{Context, ProtocolVersion, Router};
    use serde_json::{json, Value};

    use crate::{graph::KnowledgeGraph, memory};

    fn call(router: &Router, tool: &str, args: Value) -> Value {
        let result = block_on(router.call_tool(
            tool,
            Some(args),
            Context::new(ProtocolVersion::V2025_11_25),
        ))
        .unwrap();
        assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
        result.structured_content.unwrap()
    }

    #[test]
    fn the_graph_through_the_router() {
        let router = memory::router(KnowledgeGraph::default());
        assert_eq!(router.list_tools(ProtocolVersion::V2025_11_25).len(), 9);
        let ada = json!({"name": "Ada", "entityType": "person", "observations": ["wrote notes"]});
        let created = call(
            &router,
            "create_entities",
            json!({"entities": [ada.clone()]}),
        );
        assert_eq!(created, json!({"entities": [ada.clone()]}));
        // An entity that exists already is not created again.
        let again = call(&router, "create_entities", json!({"entities": [ada]}));
        assert_eq!(again, json!({"entities": []}));
        call(
            &router,
            "create_entities",
            json!({"entities": [{"name": "Engine", "entityType": "machine", "observations": []}]}),
        );
        let relation = json!({"from": "Ada", "to": "Engine", "relationType": "programs"});
        let created = call(
            &router,
            "create_relations",
            json!({"relations": [relation]}),
        );
        assert_eq!(created, json!({"relations": [relation]}));
        let added = call(
            &router,
            "add_observations",
            json!({"observations": [{"entityName": "Engine", "contents": ["analytical", "analytical"]}]}),
        );
        assert_eq!(
            added,
            json!({"results": [{"entityName": "Engine", "addedObservations": ["analytical"]}]})
        );
        let found = call(&router, "search_nodes", json!({"query": "ANALYT"}));
        assert_eq!(found["entities"].as_array().unwrap().len(), 1);
        assert_eq!(found["relations"], json!([]));
        let opened = call(&router, "open_nodes", json!({"names": ["Ada", "Engine"]}));
        assert_eq!(opened["relations"], json!([relation]));
        call(
            &router,
            "delete_entities",
            json!({"entityNames": ["Engine"]}),
        );
        let graph = call(&router, "read_graph", json!({}));
        assert_eq!(
            graph,
            json!({
                "entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote notes"]}],
                "relations": []
            })
        );
    }

    #[test]
    fn observations_of_a_missing_entity_are_a_tool_error() {
        let router = memory::router(KnowledgeGraph::default());
        let result = block_on(router.call_tool(
            "add_observations",
            Some(json!({"observations": [{"entityName": "Nobody", "contents": ["x"]}]})),
            Context::new(ProtocolVersion::V2025_11_25),
        ))
        .unwrap();
        assert_eq!(result.is_error, Some(true));
    }

    /// The YAML description holds the same data as the JSON original of the corpus,
    /// plus the `x-mcpdesc-after` hint of `read_graph`'s example (the JSON was recorded
    /// before the hint existed; the shared corpus is read-only).
    #[test]
    fn yaml_matches_the_json_original() {
        let test = "memory-server-macro::tests::yaml_matches_the_json_original";
        let Some(shared) = crate::prereq::shared_conformance(test) else {
            return;
        };
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let json = std::fs::read_to_string(shared.join("real-world/memory.mcpdesc.json")).unwrap();
        let limits = mcpdesc_codegen::Limits::default();
        let yaml =
            mcpdesc_codegen::Description::from_path(&dir.join("memory.mcpdesc.yaml"), &limits)
                .unwrap();
        assert!(yaml.is_valid(), "{}", yaml.render_diagnostics());
        let from_json: Value = serde_json::from_str(&json).unwrap();
        let mut from_yaml = yaml.loaded.unwrap().value;
        let example = from_yaml
            .pointer_mut("/tools/6/examples/recorded-1")
            .and_then(Value::as_object_mut)
            .unwrap();
        assert_eq!(
            example.shift_remove("x-mcpdesc-after"),
            Some(json!(["create_entities/recorded-0"]))
        );
        assert_eq!(from_yaml, from_json);
    }
}
