//! [`ToolExamples`]: a tool's examples as static data, with the typed accessors every
//! generated `examples::<tool>` module used to repeat as functions.
//!
//! Generated code holds one constant per tool,
//!
//! ```text
//! pub const ALL: ::mcpdesc::testing::ToolExamples<types::WeatherInput, types::WeatherOutput> =
//!     ::mcpdesc::testing::ToolExamples::new(&tools::weather::SPEC, &[Example { .. }], &[]);
//! ```
//!
//! and users read `examples::weather::ALL.typed_input("paris")`,
//! `ALL.examples[0]`, `ALL.tool` (what the checks of `crate::testing` and
//! `crate::implementation` take). The type parameters
//! only select the types the accessors deserialize into; a tool without
//! `outputSchema` has [`NoOutput`], which has no `typed_output`.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::tools;
use crate::examples::data::{self, Example, InteractionExample, ToolCase};
use crate::server::router::ToolSpec;

/// The output type parameter of a tool without `outputSchema`: there is no typed
/// output to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoOutput {}

/// A tool's Tool Examples and Tool Interaction Examples (JSON texts, parsed on use),
/// with accessors typed by the tool's generated input `I` and output `O`.
pub struct ToolExamples<I, O = NoOutput> {
    /// The tool, for the checks of `crate::testing`.
    pub tool: ToolCase,
    /// The Tool Examples, in the description's order.
    pub examples: &'static [Example],
    /// The Tool Interaction Examples, in the description's order.
    pub interaction_examples: &'static [InteractionExample],
    // `fn() -> _`: the constant is `Send + Sync` and `Copy` whatever the types are.
    types: PhantomData<fn() -> (I, O)>,
}

impl<I, O> Clone for ToolExamples<I, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, O> Copy for ToolExamples<I, O> {}

impl<I, O> std::fmt::Debug for ToolExamples<I, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolExamples")
            .field("tool", &self.tool)
            .field("examples", &self.examples)
            .field("interaction_examples", &self.interaction_examples)
            .finish()
    }
}

impl<I, O> ToolExamples<I, O> {
    /// The examples of the tool `spec` registers.
    pub const fn new(
        spec: &ToolSpec,
        examples: &'static [Example],
        interaction_examples: &'static [InteractionExample],
    ) -> Self {
        ToolExamples {
            tool: ToolCase::of(spec),
            examples,
            interaction_examples,
            types: PhantomData,
        }
    }

    /// The names of the examples: Tool Examples, then interaction examples, each in
    /// the description's order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> {
        self.examples
            .iter()
            .map(|e| e.name)
            .chain(self.interaction_examples.iter().map(|e| e.name))
    }

    /// The `input` of the example `name` (Tool or interaction example).
    pub fn input(&self, name: &str) -> Option<Value> {
        data::example_input(self.examples, self.interaction_examples, name)
    }

    /// The `result` of the example `name` (Tool or interaction example).
    pub fn result(&self, name: &str) -> Option<Value> {
        data::example_result(self.examples, self.interaction_examples, name)
    }
}

impl<I: DeserializeOwned, O> ToolExamples<I, O> {
    /// The `input` of the example `name` as the typed input (`None` for an unknown
    /// name).
    pub fn typed_input(&self, name: &str) -> Option<Result<I, serde_json::Error>> {
        data::typed(self.input(name))
    }
}

impl<I, O: DeserializeOwned> ToolExamples<I, O> {
    /// The `structuredContent` of the example `name` as the typed output (`None` for
    /// an unknown name or a result without `structuredContent`).
    pub fn typed_output(&self, name: &str) -> Option<Result<O, serde_json::Error>> {
        data::typed(
            self.result(name)
                .and_then(|r| r.get("structuredContent").cloned()),
        )
    }
}

impl<I: Serialize + DeserializeOwned, O> ToolExamples<I, O> {
    /// The generated test of the Tool Example at `index` of a tool without
    /// `outputSchema` ([`testing::check_example`]); panics with its message.
    ///
    /// [`testing::check_example`]: tools::check_example
    pub fn check_example(&self, index: usize) {
        expect(tools::check_example::<I>(&self.tool, &self.examples[index]));
    }
}

impl<I: Serialize + DeserializeOwned, O: Serialize + DeserializeOwned> ToolExamples<I, O> {
    /// The generated test of the Tool Example at `index` of a tool with
    /// `outputSchema` ([`testing::check_example_with_output`]); panics with its
    /// message.
    ///
    /// [`testing::check_example_with_output`]: tools::check_example_with_output
    pub fn check_example_with_output(&self, index: usize) {
        expect(tools::check_example_with_output::<I, O>(
            &self.tool,
            &self.examples[index],
        ));
    }
}

/// Panics with the message of a failed check (what a generated test does with it).
#[track_caller]
pub fn expect(check: Result<(), String>) {
    if let Err(message) = check {
        panic!("{message}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::version::ProtocolVersion;

    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct Input {
        city: String,
    }

    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct Output {
        temperature: f64,
    }

    const SPEC: ToolSpec = ToolSpec::new(
        "weather",
        &[ProtocolVersion::V2025_11_25],
        r#"{"name":"weather","title":"Weather","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"outputSchema":{"type":"object","properties":{"temperature":{"type":"number"}},"required":["temperature"]}}"#,
    );

    const ALL: ToolExamples<Input, Output> = ToolExamples::new(
        &SPEC,
        &[Example {
            name: "paris",
            pointer: "/tools/0/examples/paris",
            input: r#"{"city":"Paris"}"#,
            result: r#"{"content":[{"type":"text","text":"{\"temperature\":21.5}"}],"structuredContent":{"temperature":21.5}}"#,
        }],
        &[],
    );

    const NO_OUTPUT: ToolExamples<Input> = ToolExamples::new(&SPEC, ALL.examples, &[]);

    #[test]
    fn accessors_read_the_data() {
        assert_eq!(ALL.tool.tool, "weather");
        assert_eq!(ALL.tool.scope, &[ProtocolVersion::V2025_11_25]);
        assert_eq!(ALL.names().collect::<Vec<_>>(), ["paris"]);
        assert_eq!(
            ALL.input("paris"),
            Some(serde_json::json!({"city": "Paris"}))
        );
        assert_eq!(
            ALL.typed_input("paris").map(Result::unwrap),
            Some(Input {
                city: "Paris".into()
            })
        );
        assert_eq!(
            ALL.typed_output("paris").map(Result::unwrap),
            Some(Output { temperature: 21.5 })
        );
        assert!(ALL.input("nowhere").is_none());
        assert!(NO_OUTPUT.typed_input("paris").is_some());
    }

    #[test]
    fn the_generated_test_passes_and_fails() {
        ALL.check_example_with_output(0);
        NO_OUTPUT.check_example(0);
        const WRONG: ToolExamples<Input, Output> = ToolExamples::new(
            &SPEC,
            &[Example {
                name: "bad",
                pointer: "/tools/0/examples/bad",
                input: r#"{"city":7}"#,
                result: r#"{"content":[]}"#,
            }],
            &[],
        );
        let panic = std::panic::catch_unwind(|| WRONG.check_example_with_output(0))
            .expect_err("an input that breaks the schema fails the test");
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(message.contains("/tools/0/examples/bad"), "{message}");
    }

    #[test]
    fn spec_members_by_pointer() {
        assert_eq!(SPEC.text("/title").as_deref(), Some("Weather"));
        assert_eq!(SPEC.flag("/annotations/readOnlyHint"), Some(true));
        assert_eq!(SPEC.flag("/deprecated"), None);
        assert_eq!(SPEC.text("/description"), None);
    }
}
