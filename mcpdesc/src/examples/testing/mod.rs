//! Checks that generated example tests (and users' own tests) run on Tool Examples.
//!
//! Every check returns `Err(String)` with a message that names the tool, the example and
//! the JSON pointer of the problem inside the description, for example
//!
//! ```text
//! tool `analyze_game`, example `basic` (/tools/0/examples/basic/input/depth): does not
//! validate against the inputSchema: 50 is greater than the maximum of 40
//! ```
//!
//! Generated code calls [`check_example`] and [`check_example_with_output`] once per Tool
//! Example and [`check_interaction`] once per Tool Interaction Example; the generated
//! contract check calls [`check_against`]. With a test server, the generated tests also
//! run each example against the implementation ([`crate::implementation`](crate::examples::implementation)), which
//! reports the first difference with [`first_difference`]. The lower-level helpers ([`validate`],
//! [`round_trip`], [`check_content`], [`check_error_shape`], [`compare_results`]) are
//! public for hand-written tests.
//!
//! Schemas are compiled with `jsonschema` (offline, the dialect from `$schema`) once per
//! distinct schema text and process.

mod request_examples;
pub(crate) mod requests;
mod tool_examples;
mod tools;
pub(crate) mod values;

pub use request_examples::{NoArguments, RequestExamples};
pub use requests::{
    check_completion_example, check_prompt_example, check_resource_example, check_template_example,
};
pub use tool_examples::{expect, NoOutput, ToolExamples};
pub use tools::{
    check_against, check_example, check_example_with_output, check_interaction, compare_results,
};
pub use values::{check_content, check_error_shape, round_trip, validate, validate_if_compilable};

pub use crate::examples::data::{
    example_input, example_result, normalize, parse_json, request_example_request,
    request_example_result, to_object, typed, Example, InteractionExample, RequestExample,
    ToolCase,
};
pub use crate::examples::difference::{first_difference, Difference};
pub use crate::examples::scripted::ScriptedClient;
pub use crate::protocol::json::canonical;
