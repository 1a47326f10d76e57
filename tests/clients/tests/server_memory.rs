//! The official npm `@modelcontextprotocol/server-memory` through the typed client
//! generated from the shared real-world `memory.mcpdesc.json`: entities, relations
//! and observations are created, read back, searched and deleted with typed inputs and
//! typed outputs, against the live server (a knowledge graph in a temporary file).
//!
//! Needs the shared corpus (for the description) and the npm package installed under
//! `tests/e2e/node_modules/`; without either the test passes after one notice line
//! (`tests/prereq.rs`).

use std::time::Duration;

#[path = "../../prereq.rs"]
mod prereq;

#[cfg(not(shared_corpus))]
#[test]
fn the_memory_server_through_its_typed_client() {
    // The build found no corpus, so the client was not generated: a notice, or a
    // failure under MCPDESC_REQUIRE_CORPUS=1.
    let found = prereq::shared_conformance(
        "mcpdesc-test-clients/server_memory::the_memory_server_through_its_typed_client",
    );
    assert!(
        found.is_none(),
        "the shared corpus appeared after the build; rebuild to generate its clients"
    );
}

#[cfg(shared_corpus)]
#[tokio::test]
async fn the_memory_server_through_its_typed_client() {
    use mcpdesc_test_clients::memory::generated::types::*;
    use mcpdesc_test_clients::memory::generated::Client;

    let Some(package) = prereq::npm_package(
        "mcpdesc-test-clients/server_memory::the_memory_server_through_its_typed_client",
        "@modelcontextprotocol/server-memory",
    ) else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("mcpdesc-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut command = tokio::process::Command::new("node");
    command
        .arg(package.join("dist/index.js"))
        .env("MEMORY_FILE_PATH", dir.join("memory.jsonl"));
    let session = mcpdesc::client::stdio(command).await.unwrap();
    let client = Client::new(session);

    let run = async {
        let created = client
            .create_entities(CreateEntitiesInput {
                entities: vec![
                    CreateEntitiesInputEntitiesItem {
                        name: "Ada".into(),
                        entity_type: "person".into(),
                        observations: vec!["wrote the first program".into()],
                    },
                    CreateEntitiesInputEntitiesItem {
                        name: "Analytical Engine".into(),
                        entity_type: "machine".into(),
                        observations: vec![],
                    },
                ],
            })
            .await
            .unwrap();
        let names: Vec<&str> = created.entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Ada", "Analytical Engine"]);

        let related = client
            .create_relations(CreateRelationsInput {
                relations: vec![CreateRelationsInputRelationsItem {
                    from: "Ada".into(),
                    to: "Analytical Engine".into(),
                    relation_type: "programmed".into(),
                }],
            })
            .await
            .unwrap();
        assert_eq!(related.relations.len(), 1);

        let added = client
            .add_observations(AddObservationsInput {
                observations: vec![AddObservationsInputObservationsItem {
                    entity_name: "Ada".into(),
                    contents: vec!["countess of Lovelace".into()],
                }],
            })
            .await
            .unwrap();
        assert_eq!(added.results.len(), 1);

        let graph = client
            .read_graph(ReadGraphInput(Default::default()))
            .await
            .unwrap();
        assert_eq!(graph.entities.len(), 2);
        assert_eq!(graph.relations.len(), 1);
        let ada = graph.entities.iter().find(|e| e.name == "Ada").unwrap();
        assert_eq!(
            ada.observations,
            ["wrote the first program", "countess of Lovelace"]
        );

        let found = client
            .search_nodes(SearchNodesInput {
                query: "Lovelace".into(),
            })
            .await
            .unwrap();
        let names: Vec<&str> = found.entities.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Ada"]);

        client
            .delete_entities(DeleteEntitiesInput {
                entity_names: vec!["Analytical Engine".into()],
            })
            .await
            .unwrap();
        let graph = client
            .read_graph(ReadGraphInput(Default::default()))
            .await
            .unwrap();
        assert_eq!(graph.entities.len(), 1);
        assert!(graph.relations.is_empty(), "{:?}", graph.relations);
    };
    tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the calls finish within 60 s");
    client.session().close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
