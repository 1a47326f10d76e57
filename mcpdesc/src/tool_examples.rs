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
//! `ALL.examples[0]`, `ALL.tool` (what the checks of [`crate::testing`] and
//! [`crate::implementation`] take). The type parameters
//! only select the types the accessors deserialize into; a tool without
//! `outputSchema` has [`NoOutput`], which has no `typed_output`.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::testing::{self, Example, InteractionExample, ToolCase};
use crate::ToolSpec;

/// The output type parameter of a tool without `outputSchema`: there is no typed
/// output to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoOutput {}

/// A tool's Tool Examples and Tool Interaction Examples (JSON texts, parsed on use),
/// with accessors typed by the tool's generated input `I` and output `O`.
pub struct ToolExamples<I, O = NoOutput> {
    /// The tool, for the checks of [`crate::testing`].
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
        testing::example_input(self.examples, self.interaction_examples, name)
    }

    /// The `result` of the example `name` (Tool or interaction example).
    pub fn result(&self, name: &str) -> Option<Value> {
        testing::example_result(self.examples, self.interaction_examples, name)
    }
}

impl<I: DeserializeOwned, O> ToolExamples<I, O> {
    /// The `input` of the example `name` as the typed input (`None` for an unknown
    /// name).
    pub fn typed_input(&self, name: &str) -> Option<Result<I, serde_json::Error>> {
        testing::typed(self.input(name))
    }
}

impl<I, O: DeserializeOwned> ToolExamples<I, O> {
    /// The `structuredContent` of the example `name` as the typed output (`None` for
    /// an unknown name or a result without `structuredContent`).
    pub fn typed_output(&self, name: &str) -> Option<Result<O, serde_json::Error>> {
        testing::typed(
            self.result(name)
                .and_then(|r| r.get("structuredContent").cloned()),
        )
    }
}

impl<I: Serialize + DeserializeOwned, O> ToolExamples<I, O> {
    /// The generated test of the Tool Example at `index` of a tool without
    /// `outputSchema` ([`testing::check_example`]); panics with its message.
    pub fn check_example(&self, index: usize) {
        expect(testing::check_example::<I>(
            &self.tool,
            &self.examples[index],
        ));
    }
}

impl<I: Serialize + DeserializeOwned, O: Serialize + DeserializeOwned> ToolExamples<I, O> {
    /// The generated test of the Tool Example at `index` of a tool with
    /// `outputSchema` ([`testing::check_example_with_output`]); panics with its
    /// message.
    pub fn check_example_with_output(&self, index: usize) {
        expect(testing::check_example_with_output::<I, O>(
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
