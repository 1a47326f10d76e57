//! Generated `prompts/get` requests for the prompts `--generate` selects: valid ones
//! (every required argument, some optional ones, short random words as values) must
//! keep the prompt result rules when they succeed, and invalid ones (a required
//! argument left out) should be refused.
//!
//! **Decisions.** Prompt arguments are strings with no schema, so a server may refuse
//! a generated value it does not know (an unknown id): a JSON-RPC error on a valid
//! request is not reported. MCP says servers SHOULD validate prompt arguments, so a
//! request without a required argument that succeeds is a warning
//! (`prompt-arguments-accepted`), not a failure. Resource templates get theirs in
//! `generated_templates.rs`, completions in `generated_completions.rs`.

use serde_json::{json, Map, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::results;
use crate::rng::Rng;
use crate::run::{Answer, Checker, Listed};

impl Checker<'_> {
    /// Sends `--cases` generated `prompts/get` requests to each selected prompt.
    pub(crate) async fn generated_prompts(&mut self, prompts: &[Declared], listed: &Listed) {
        for prompt in prompts {
            if !self.config.generate.primitive(&prompt.id, true)
                || !listed.prompts.contains(&prompt.id)
                || self.dead
            {
                continue;
            }
            let arguments: Vec<(String, bool)> = prompt
                .declaration
                .get("arguments")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|a| {
                    let name = a.get("name")?.as_str()?.to_owned();
                    Some((name, a.get("required") == Some(&Value::Bool(true))))
                })
                .collect();
            let required: Vec<&str> = arguments
                .iter()
                .filter(|(_, r)| *r)
                .map(|(n, _)| n.as_str())
                .collect();
            let mut rng = Rng::new(self.config.seed, &format!("prompt:{}", prompt.id));
            for i in 0..self.config.cases {
                let mut sent = Map::new();
                for (name, is_required) in &arguments {
                    if *is_required || rng.flip() {
                        sent.insert(name.clone(), Value::String(word(&mut rng)));
                    }
                }
                // Every second request leaves a required argument out, when there is one.
                let left_out = (i % 2 == 1 && !required.is_empty())
                    .then(|| required[rng.below(required.len())].to_owned());
                if let Some(name) = &left_out {
                    sent.shift_remove(name);
                }
                let label = format!(
                    "generated #{} ({})",
                    i + 1,
                    if left_out.is_some() {
                        "invalid"
                    } else {
                        "valid"
                    }
                );
                let sent = Value::Object(sent);
                let params = json!({"name": prompt.id, "arguments": sent});
                let Some(answer) = self.call("prompts/get", &prompt.id, &label, params).await
                else {
                    return;
                };
                let finding = |kind: &'static str, severity: Severity, message: String| {
                    Finding::new(kind, severity, Primitive::Prompt, &prompt.id, message)
                        .with_example(label.clone())
                };
                match (answer, &left_out) {
                    (Answer::Result(result), None) => {
                        for (kind, message) in results::prompt_result(&result, self.version) {
                            self.push(finding(
                                kind,
                                Severity::Failure,
                                format!("{message} (arguments {sent})"),
                            ));
                        }
                    }
                    (Answer::Result(_), Some(name)) => self.push(finding(
                        "prompt-arguments-accepted",
                        Severity::Warning,
                        format!(
                            "the required argument `{name}` was left out, but `prompts/get` succeeded (servers should validate prompt arguments); arguments {sent}"
                        ),
                    )),
                    // A server may refuse a value it does not know.
                    (Answer::Error(..), _) => {}
                    (Answer::Lost(kind, why), _) => self.push(finding(
                        kind,
                        Severity::Failure,
                        format!("{why} (arguments {sent})"),
                    )),
                }
            }
            let names: Vec<String> = arguments.iter().map(|(n, _)| n.clone()).collect();
            let reference = json!({"type": "ref/prompt", "name": prompt.id});
            self.generated_completions(Primitive::Prompt, prompt, reference, &names)
                .await;
        }
    }
}

/// A short random word (letters and digits): a generated prompt argument or template
/// variable.
pub(crate) fn word(rng: &mut Rng) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let len = 1 + rng.below(8);
    (0..len)
        .map(|_| LETTERS[rng.below(LETTERS.len())] as char)
        .collect()
}
