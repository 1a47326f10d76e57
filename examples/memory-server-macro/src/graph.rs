//! The knowledge graph and the tool implementations.

use std::sync::Mutex;

use mcpdesc::{Context, ToolError};

use crate::memory::{self, types};

/// An entity: a named node with a type and observations.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub name: String,
    pub entity_type: String,
    pub observations: Vec<String>,
}

/// A directed, typed edge between two entities (by name).
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    pub from: String,
    pub to: String,
    pub relation_type: String,
}

#[derive(Debug, Default)]
struct Graph {
    entities: Vec<Entity>,
    relations: Vec<Relation>,
}

impl Graph {
    fn entity_mut(&mut self, name: &str) -> Result<&mut Entity, ToolError> {
        self.entities
            .iter_mut()
            .find(|e| e.name == name)
            .ok_or_else(|| ToolError::new(format!("Entity with name {name} not found")))
    }

    /// The entities `keep` selects, and the relations between two of them.
    fn subgraph(&self, keep: impl Fn(&Entity) -> bool) -> (Vec<Entity>, Vec<Relation>) {
        let entities: Vec<Entity> = self.entities.iter().filter(|e| keep(e)).cloned().collect();
        let has = |name: &str| entities.iter().any(|e| e.name == name);
        let relations = self
            .relations
            .iter()
            .filter(|r| has(&r.from) && has(&r.to))
            .cloned()
            .collect();
        (entities, relations)
    }
}

/// The server: one graph behind a lock (the tools are short and never await while
/// holding it).
#[derive(Debug, Default)]
pub struct KnowledgeGraph {
    graph: Mutex<Graph>,
}

impl KnowledgeGraph {
    fn with<T>(&self, f: impl FnOnce(&mut Graph) -> T) -> T {
        f(&mut self.graph.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Converts the graph's entities and relations into the generated item types (the tools'
/// identical inline item schemas are one shared type each, named after the first use).
impl From<Entity> for types::CreateEntitiesOutputEntitiesItem {
    fn from(e: Entity) -> Self {
        types::CreateEntitiesOutputEntitiesItem {
            name: e.name,
            entity_type: e.entity_type,
            observations: e.observations,
        }
    }
}

impl From<Relation> for types::CreateRelationsOutputRelationsItem {
    fn from(r: Relation) -> Self {
        types::CreateRelationsOutputRelationsItem {
            from: r.from,
            to: r.to,
            relation_type: r.relation_type,
        }
    }
}

fn convert<T, U: From<T>>(items: Vec<T>) -> Vec<U> {
    items.into_iter().map(U::from).collect()
}

impl memory::CreateEntities for KnowledgeGraph {
    async fn create_entities(
        &self,
        input: types::CreateEntitiesInput,
        _cx: Context,
    ) -> Result<types::CreateEntitiesOutput, ToolError> {
        let created = self.with(|g| {
            let mut created = Vec::new();
            for e in input.entities {
                if g.entities.iter().any(|x| x.name == e.name) {
                    continue;
                }
                let entity = Entity {
                    name: e.name,
                    entity_type: e.entity_type,
                    observations: e.observations,
                };
                g.entities.push(entity.clone());
                created.push(entity);
            }
            created
        });
        Ok(types::CreateEntitiesOutput {
            entities: convert(created),
        })
    }
}

impl memory::CreateRelations for KnowledgeGraph {
    async fn create_relations(
        &self,
        input: types::CreateRelationsInput,
        _cx: Context,
    ) -> Result<types::CreateRelationsOutput, ToolError> {
        let created = self.with(|g| {
            let mut created = Vec::new();
            for r in input.relations {
                let relation = Relation {
                    from: r.from,
                    to: r.to,
                    relation_type: r.relation_type,
                };
                if !g.relations.contains(&relation) {
                    g.relations.push(relation.clone());
                    created.push(relation);
                }
            }
            created
        });
        Ok(types::CreateRelationsOutput {
            relations: convert(created),
        })
    }
}

impl memory::AddObservations for KnowledgeGraph {
    async fn add_observations(
        &self,
        input: types::AddObservationsInput,
        _cx: Context,
    ) -> Result<types::AddObservationsOutput, ToolError> {
        let results = self.with(|g| {
            let mut results = Vec::new();
            for o in input.observations {
                let entity = g.entity_mut(&o.entity_name)?;
                let mut added = Vec::new();
                for content in o.contents {
                    if !entity.observations.contains(&content) {
                        entity.observations.push(content.clone());
                        added.push(content);
                    }
                }
                results.push(types::AddObservationsOutputResultsItem {
                    entity_name: o.entity_name,
                    added_observations: added,
                });
            }
            Ok::<_, ToolError>(results)
        })?;
        Ok(types::AddObservationsOutput { results })
    }
}

impl memory::DeleteEntities for KnowledgeGraph {
    async fn delete_entities(
        &self,
        input: types::DeleteEntitiesInput,
        _cx: Context,
    ) -> Result<types::DeleteEntitiesOutput, ToolError> {
        self.with(|g| {
            let gone = |name: &String| input.entity_names.contains(name);
            g.entities.retain(|e| !gone(&e.name));
            g.relations.retain(|r| !gone(&r.from) && !gone(&r.to));
        });
        Ok(types::DeleteEntitiesOutput {
            success: true,
            message: "Entities deleted successfully".into(),
        })
    }
}

impl memory::DeleteObservations for KnowledgeGraph {
    async fn delete_observations(
        &self,
        input: types::DeleteObservationsInput,
        _cx: Context,
    ) -> Result<types::DeleteObservationsOutput, ToolError> {
        self.with(|g| {
            for d in input.deletions {
                if let Some(e) = g.entities.iter_mut().find(|e| e.name == d.entity_name) {
                    e.observations.retain(|o| !d.observations.contains(o));
                }
            }
        });
        Ok(types::DeleteObservationsOutput {
            success: true,
            message: "Observations deleted successfully".into(),
        })
    }
}

impl memory::DeleteRelations for KnowledgeGraph {
    async fn delete_relations(
        &self,
        input: types::DeleteRelationsInput,
        _cx: Context,
    ) -> Result<types::DeleteRelationsOutput, ToolError> {
        let doomed: Vec<Relation> = input
            .relations
            .into_iter()
            .map(|r| Relation {
                from: r.from,
                to: r.to,
                relation_type: r.relation_type,
            })
            .collect();
        self.with(|g| g.relations.retain(|r| !doomed.contains(r)));
        Ok(types::DeleteRelationsOutput {
            success: true,
            message: "Relations deleted successfully".into(),
        })
    }
}

impl memory::ReadGraph for KnowledgeGraph {
    async fn read_graph(
        &self,
        _input: types::ReadGraphInput,
        _cx: Context,
    ) -> Result<types::ReadGraphOutput, ToolError> {
        let (entities, relations) = self.with(|g| g.subgraph(|_| true));
        Ok(types::ReadGraphOutput {
            entities: convert(entities),
            relations: convert(relations),
        })
    }
}

impl memory::SearchNodes for KnowledgeGraph {
    async fn search_nodes(
        &self,
        input: types::SearchNodesInput,
        _cx: Context,
    ) -> Result<types::SearchNodesOutput, ToolError> {
        let query = input.query.to_lowercase();
        let matches = |text: &str| text.to_lowercase().contains(&query);
        let (entities, relations) = self.with(|g| {
            g.subgraph(|e| {
                matches(&e.name)
                    || matches(&e.entity_type)
                    || e.observations.iter().any(|o| matches(o))
            })
        });
        Ok(types::SearchNodesOutput {
            entities: convert(entities),
            relations: convert(relations),
        })
    }
}

impl memory::OpenNodes for KnowledgeGraph {
    async fn open_nodes(
        &self,
        input: types::OpenNodesInput,
        _cx: Context,
    ) -> Result<types::OpenNodesOutput, ToolError> {
        let (entities, relations) = self.with(|g| g.subgraph(|e| input.names.contains(&e.name)));
        Ok(types::OpenNodesOutput {
            entities: convert(entities),
            relations: convert(relations),
        })
    }
}
