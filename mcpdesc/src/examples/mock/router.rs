//! The mock as a [`Router`]: every spec of [`Specs`] served, each request answered
//! from the [`ExampleBook`]; tool arguments matched with the `inputSchema`'s defaults
//! filled in.

use std::sync::Arc;

use serde_json::Value;

use super::book::ExampleBook;
use super::target::Target;
use crate::protocol::completions::CompletionTarget;
use crate::protocol::prompts::PromptSpec;
use crate::protocol::resources::{ResourceSpec, ResourceTemplateSpec};
use crate::protocol::version::ProtocolVersion;
use crate::server::router::{Router, ServerInfo, ToolSpec};

/// Everything a mock router serves, as generated code declares it (`'static`
/// constants); see [`ExampleBook::router`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Specs {
    /// The tools.
    pub tools: &'static [ToolSpec],
    /// The prompts.
    pub prompts: &'static [PromptSpec],
    /// The resources.
    pub resources: &'static [ResourceSpec],
    /// The resource templates.
    pub resource_templates: &'static [ResourceTemplateSpec],
}

impl ExampleBook {
    /// A router that serves everything in `specs` and answers every request from the
    /// book with the exact example result: `tools/call` through
    /// [`ExampleBook::respond`], `prompts/get`, `resources/read` and
    /// `completion/complete` through the `respond_*` methods (completion handlers are
    /// registered for the prompts and templates with completion examples). The
    /// capabilities come from `info` ([`ServerInfo::capabilities`]).
    pub fn router(self, info: ServerInfo, specs: &Specs) -> Router {
        let book = Arc::new(self);
        let mut router = specs.tools.iter().fold(Router::new(info), |router, spec| {
            let book = Arc::clone(&book);
            let name = spec.name;
            // Arguments equal once the inputSchema's defaults are filled in match: a
            // typed client sends `"includeImage": false` where the example leaves the
            // defaulted member out.
            let schema = serde_json::from_str::<Value>(spec.declaration)
                .ok()
                .and_then(|d| d.get("inputSchema").cloned())
                .unwrap_or(Value::Null);
            let schema = Arc::new(schema);
            router.tool(*spec, move |args, cx| {
                let book = Arc::clone(&book);
                let schema = Arc::clone(&schema);
                Box::pin(async move {
                    let defaults = |v: &Value| with_schema_defaults(v, &schema);
                    book.respond(name, &args, &defaults, &cx).await
                })
            })
        });
        for spec in specs.prompts {
            let book = Arc::clone(&book);
            let name = spec.name;
            router = router.prompt(*spec, move |args, cx| {
                let answer = book.respond_prompt(name, &args, &cx);
                Box::pin(async move { answer })
            });
        }
        for spec in specs.resources {
            let book = Arc::clone(&book);
            router = router.resource(*spec, move |uri, cx| {
                let answer = book.respond_resource(&uri, &cx);
                Box::pin(async move { answer })
            });
        }
        for spec in specs.resource_templates {
            let book = Arc::clone(&book);
            let template = spec.uri_template;
            router = router.resource_template(*spec, move |uri, _variables, cx| {
                let answer = book.respond_resource_template(template, &uri, &cx);
                Box::pin(async move { answer })
            });
        }
        let completions: Vec<(CompletionTarget, Vec<ProtocolVersion>)> = book
            .others
            .iter()
            .filter_map(|b| match &b.target {
                Target::Completion(target) => Some((target.clone(), b.scope.clone())),
                _ => None,
            })
            .collect();
        for (target, scope) in completions {
            let book = Arc::clone(&book);
            let scope: &'static [ProtocolVersion] = Box::leak(scope.into_boxed_slice());
            let answering = target.clone();
            router = router.completion(target, scope, move |request, cx| {
                let answer = book.respond_completion(&answering, &request, &cx);
                Box::pin(async move { answer })
            });
        }
        router
    }
}

/// `value` with the `default` of every property its object schema declares and the
/// value lacks, recursively through `properties` (nothing else of the schema is
/// followed: `$ref`, `allOf` and the like are left alone). For comparing arguments,
/// where a member left at its default and one given as the default mean the same.
///
/// ```
/// use mcpdesc::mock::with_schema_defaults;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "kind": {"type": "string"},
///     "image": {"type": "boolean", "default": false}
/// }});
/// assert_eq!(with_schema_defaults(&json!({"kind": "a"}), &schema), json!({"kind": "a", "image": false}));
/// ```
pub fn with_schema_defaults(value: &Value, schema: &Value) -> Value {
    let (Value::Object(object), Some(Value::Object(properties))) =
        (value, schema.get("properties"))
    else {
        return value.clone();
    };
    let mut out = object.clone();
    for (name, property) in properties {
        match out.get_mut(name) {
            Some(member) => *member = with_schema_defaults(member, property),
            None => {
                if let Some(default) = property.get("default") {
                    out.insert(name.clone(), default.clone());
                }
            }
        }
    }
    Value::Object(out)
}
