//! Generated `resources/read` requests for the resource templates `--generate`
//! selects: `--cases` URIs built from the template with a short random word for each
//! variable (RFC 6570 level 1 simple expansion, so every value is percent-encoded as
//! the runtime's `UriTemplate::expand` does); a result must keep the resource result
//! rules.
//!
//! **Decisions.** A template's variables have no schema, so a server may not know a
//! generated value (no such opening, no such file): a JSON-RPC error (MCP's -32002
//! "resource not found" among them) is not reported, as for generated prompt
//! arguments. A template beyond level 1 (`{+path}`, `{?q}`) is a `skipped` finding:
//! which URIs such an expression may produce depends on the operator, and
//! the runtime expands level 1 only. Completions of the variables: `generated_completions.rs`.

use serde_json::{json, Map, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::generated_prompts::word;
use crate::results;
use crate::rng::Rng;
use crate::run::{Answer, Checker, Listed};

impl Checker<'_> {
    /// Sends `--cases` generated `resources/read` requests to each selected template
    /// (selected by its URI template or its name).
    pub(crate) async fn generated_templates(&mut self, templates: &[Declared], listed: &Listed) {
        for template in templates {
            let names: Vec<&str> = [Some(template.id.as_str()), template.text("name")]
                .into_iter()
                .flatten()
                .collect();
            if !self.config.generate.primitive_any(&names, true)
                || !listed.templates.contains(&template.id)
                || self.dead
            {
                continue;
            }
            let finding = |kind: &'static str, severity: Severity, message: String| {
                Finding::new(
                    kind,
                    severity,
                    Primitive::ResourceTemplate,
                    &template.id,
                    message,
                )
            };
            let parsed = match mcpdesc::UriTemplate::parse(&template.id) {
                Ok(parsed) => parsed,
                Err(why) => {
                    self.push(finding(
                        "skipped",
                        Severity::Skipped,
                        format!("no URIs generated: {why}"),
                    ));
                    continue;
                }
            };
            let mut rng = Rng::new(self.config.seed, &format!("template:{}", template.id));
            for i in 0..self.config.cases {
                let variables: Map<String, Value> = parsed
                    .variables()
                    .iter()
                    .map(|name| (name.clone(), Value::String(word(&mut rng))))
                    .collect();
                let uri = match parsed.expand(&variables) {
                    Ok(uri) => uri,
                    Err(why) => {
                        self.push(finding(
                            "skipped",
                            Severity::Skipped,
                            format!("no URIs generated: {why}"),
                        ));
                        break;
                    }
                };
                let label = format!("generated #{}", i + 1);
                let params = json!({ "uri": uri });
                let Some(answer) = self
                    .call("resources/read", &template.id, &label, params)
                    .await
                else {
                    return;
                };
                match answer {
                    Answer::Result(result) => {
                        for (kind, message) in results::resource_result(&result) {
                            self.push(
                                finding(kind, Severity::Failure, format!("{message} (URI {uri})"))
                                    .with_example(label.clone()),
                            );
                        }
                    }
                    // A server may not know a generated value.
                    Answer::Error(..) => {}
                    Answer::Lost(kind, why) => self.push(
                        finding(kind, Severity::Failure, format!("{why} (URI {uri})"))
                            .with_example(label.clone()),
                    ),
                }
            }
            let reference = json!({"type": "ref/resource", "uri": template.id});
            let variables = parsed.variables().to_vec();
            self.generated_completions(
                Primitive::ResourceTemplate,
                template,
                reference,
                &variables,
            )
            .await;
        }
    }
}
