//! [`RequestExamples`]: a prompt's, resource's or resource template's examples as static
//! data, with the accessors every generated `prompt_examples::<name>`,
//! `resource_examples::<name>` and `resource_template_examples::<name>` module used to
//! repeat as functions.
//!
//! ```text
//! pub const ALL: ::mcpdesc::testing::RequestExamples<types::OpeningStudyArguments> =
//!     ::mcpdesc::testing::RequestExamples::new(&[RequestExample { .. }], &[/* completions */]);
//! ```
//!
//! The type parameter is the prompt's generated arguments type (for
//! `typed_arguments`); resources and templates have [`NoArguments`].

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::examples::data::{self, RequestExample};

/// The type parameter of a resource's or template's examples: they have no typed
/// arguments to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoArguments {}

/// The examples and completion examples of a prompt, resource or resource template
/// (JSON texts, parsed on use), in name order.
pub struct RequestExamples<A = NoArguments> {
    /// The examples; `request` is a prompt's `arguments`, a resource's URI, or a
    /// template example's `uri`.
    pub examples: &'static [RequestExample],
    /// The completion examples (prompts and templates).
    pub completion_examples: &'static [RequestExample],
    types: PhantomData<fn() -> A>,
}

impl<A> Clone for RequestExamples<A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A> Copy for RequestExamples<A> {}

impl<A> std::fmt::Debug for RequestExamples<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestExamples")
            .field("examples", &self.examples)
            .field("completion_examples", &self.completion_examples)
            .finish()
    }
}

impl<A> RequestExamples<A> {
    /// The examples and completion examples of one item.
    pub const fn new(
        examples: &'static [RequestExample],
        completion_examples: &'static [RequestExample],
    ) -> Self {
        RequestExamples {
            examples,
            completion_examples,
            types: PhantomData,
        }
    }

    /// The request of the example `name` (see [`RequestExample::request`]).
    pub fn request(&self, name: &str) -> Option<Value> {
        data::request_example_request(self.examples, name)
    }

    /// The `arguments` of the prompt example `name` (`{}` when it has none).
    pub fn arguments(&self, name: &str) -> Option<Value> {
        self.request(name)
    }

    /// The `uri` of the resource template example `name` (a resource example's request
    /// is the resource's URI too).
    pub fn uri(&self, name: &str) -> Option<String> {
        self.request(name)
            .and_then(|uri| uri.as_str().map(str::to_owned))
    }

    /// The `result` of the example `name`.
    pub fn result(&self, name: &str) -> Option<Value> {
        data::request_example_result(self.examples, name)
    }
}

impl<A: DeserializeOwned> RequestExamples<A> {
    /// The `arguments` of the prompt example `name` as the typed arguments.
    pub fn typed_arguments(&self, name: &str) -> Option<Result<A, serde_json::Error>> {
        data::typed(self.arguments(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Arguments {
        eco: String,
    }

    const PROMPT: RequestExamples<Arguments> = RequestExamples::new(
        &[RequestExample {
            name: "sicilian",
            pointer: "/prompts/0/examples/sicilian",
            request: r#"{"eco":"B20"}"#,
            result: r#"{"messages":[]}"#,
        }],
        &[],
    );

    const TEMPLATE: RequestExamples = RequestExamples::new(
        &[RequestExample {
            name: "b20",
            pointer: "/resourceTemplates/0/examples/b20",
            request: r#""chess://openings/B20""#,
            result: r#"{"contents":[]}"#,
        }],
        &[],
    );

    #[test]
    fn accessors_read_the_data() {
        assert_eq!(
            PROMPT.arguments("sicilian"),
            Some(serde_json::json!({"eco": "B20"}))
        );
        assert_eq!(
            PROMPT.typed_arguments("sicilian").map(Result::unwrap),
            Some(Arguments { eco: "B20".into() })
        );
        assert_eq!(
            PROMPT.result("sicilian"),
            Some(serde_json::json!({"messages": []}))
        );
        assert_eq!(TEMPLATE.uri("b20").as_deref(), Some("chess://openings/B20"));
        assert!(TEMPLATE.uri("other").is_none());
    }
}
