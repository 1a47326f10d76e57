//! Implementations of `fixtures/generator/implementation.mcpdesc.json` (the notebook),
//! for any module generated from it: a right one, whose answers are the examples', and
//! a wrong one, which differs from each example in one known place. The implementation
//! tests generated with a test server run against them (`tests/implementation.rs`,
//! `tests/examples_roundtrip.rs`).

/// Defines the unit struct `$name` (with `new()`) and implements every trait of the
/// generated module named `contract` at the call site for it; `$wrong` (a `bool`) picks
/// the wrong implementation:
///
/// | example | right | wrong (first difference) |
/// |---|---|---|
/// | `add` / `two-and-three` | `{"sum": 5}` | `/content/0/text`: `{"sum":6}` |
/// | `greet` / `ada` | `Hello, Ada!` | `/content/0/text`: `Hi, Ada!` |
/// | `greet` / `anyone` (shape only) | `Hello, Grace!` (not the example's text) | `/isError`: an error |
/// | `delete_note` / `confirmed` | asks for the confirmation | asks nothing: step 0 never requested |
/// | prompt `welcome` / `for-ada` | a user message | `/messages/0/role`: assistant |
/// | resource `notes://count` / `empty` | `0` | `/contents/0/text`: `1` |
#[allow(unused_macros)]
macro_rules! notebook_server {
    ($name:ident, $wrong:expr) => {
        /// A notebook server for the implementation tests.
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;

        impl $name {
            /// A fresh server (it has no state).
            pub fn new() -> Self {
                $name
            }
        }

        impl contract::Add for $name {
            async fn add(
                &self,
                input: contract::types::AddInput,
                _cx: ::mcpdesc::Context,
            ) -> Result<contract::types::AddOutput, ::mcpdesc::ToolError> {
                let off = if $wrong { 1 } else { 0 };
                Ok(contract::types::AddOutput {
                    sum: input.a + input.b + off,
                })
            }
        }

        impl contract::Greet for $name {
            async fn greet(
                &self,
                input: contract::types::GreetInput,
                _cx: ::mcpdesc::Context,
            ) -> Result<::mcpdesc::ToolResult, ::mcpdesc::ToolError> {
                match (input.name.as_str(), $wrong) {
                    (_, false) => Ok(::mcpdesc::ToolResult::text(format!(
                        "Hello, {}!",
                        input.name
                    ))),
                    ("Grace", true) => Err(::mcpdesc::ToolError::new("no greeting today")),
                    (name, true) => Ok(::mcpdesc::ToolResult::text(format!("Hi, {name}!"))),
                }
            }
        }

        impl contract::DeleteNote for $name {
            async fn delete_note(
                &self,
                input: contract::types::DeleteNoteInput,
                cx: ::mcpdesc::Context,
            ) -> Result<::mcpdesc::ToolResult, ::mcpdesc::ToolError> {
                if !$wrong {
                    let schema = ::serde_json::json!({
                        "type": "object",
                        "properties": {"confirm": {"type": "boolean"}},
                        "required": ["confirm"]
                    });
                    let answer = cx
                        .elicit_form("Delete this note?", schema)
                        .await
                        .map_err(|e| ::mcpdesc::ToolError::new(e.to_string()))?;
                    let confirmed = answer
                        .content
                        .and_then(|c| c.get("confirm").and_then(|v| v.as_bool()))
                        .unwrap_or(false);
                    if !confirmed {
                        return Err(::mcpdesc::ToolError::new("not deleted"));
                    }
                }
                Ok(::mcpdesc::ToolResult::text(format!("Deleted {}", input.id)))
            }
        }

        impl contract::WelcomePrompt for $name {
            async fn get_welcome(
                &self,
                arguments: contract::types::WelcomeArguments,
                _cx: ::mcpdesc::Context,
            ) -> Result<::mcpdesc::PromptResult, ::mcpdesc::RequestError> {
                let role = if $wrong {
                    ::mcpdesc::Role::Assistant
                } else {
                    ::mcpdesc::Role::User
                };
                Ok(::mcpdesc::PromptResult::new(vec![
                    ::mcpdesc::PromptMessage::new(
                        role,
                        ::mcpdesc::Content::text(format!("Welcome, {}.", arguments.reader)),
                    ),
                ]))
            }
        }

        impl contract::CountResource for $name {
            async fn read_count(
                &self,
                _cx: ::mcpdesc::Context,
            ) -> Result<::mcpdesc::ResourceResult, ::mcpdesc::RequestError> {
                let count = if $wrong { "1" } else { "0" };
                Ok(::mcpdesc::ResourceResult::text(
                    contract::resources::count::URI,
                    "text/plain",
                    count,
                ))
            }
        }
    };
}

// Only the test binaries with a notebook module use it.
#[allow(unused_imports)]
pub(crate) use notebook_server;
