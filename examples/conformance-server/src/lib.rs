//! The server the official MCP conformance suite (`@modelcontextprotocol/conformance`
//! 0.2.0-alpha.12, server scenarios) tests: `conformance.mcpdesc.json` describes what
//! the scenarios expect, and this crate implements the generated traits.
//!
//! Everything goes through the runtime as any generated server's does: content
//! blocks, logging and progress through [`Context`], sampling and elicitation as
//! client requests, subscriptions through the runtime's `resources/subscribe` and
//! [`Context::changes`].

#[allow(clippy::all, missing_docs)]
pub mod contract {
    mcpdesc::include_generated!("conformance");
}

use std::time::Duration;

use contract::types::{
    JsonSchema202012ToolInput, TemplateDataVariables, TestAudioContentInput, TestElicitationInput,
    TestElicitationSep1034DefaultsInput, TestElicitationSep1330EnumsInput,
    TestEmbeddedResourceInput, TestErrorHandlingInput, TestImageContentInput,
    TestMultipleContentTypesInput, TestPromptWithArgumentsArguments,
    TestPromptWithEmbeddedResourceArguments, TestPromptWithImageArguments, TestReconnectionInput,
    TestSamplingInput, TestSimplePromptArguments, TestSimpleTextInput, TestToolWithLoggingInput,
    TestToolWithProgressInput,
};
use mcpdesc::{
    BlobResourceContents, CompletionRequest, CompletionResult, Content, Context, EmbeddedResource,
    LogLevel, PromptMessage, PromptResult, RequestError, ResourceContents, ResourceResult, Role,
    TextResourceContents, ToolError, ToolResult,
};
use serde_json::{json, Value};

/// A 1x1 red PNG.
pub const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A WAV file with no samples (8 kHz, mono, 16 bit).
pub const WAV: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=";

/// The implementation; it keeps no state (subscriptions are the runtime's).
#[derive(Debug, Default, Clone, Copy)]
pub struct ConformanceServer;

/// The streamable HTTP server of [`router`], with the runtime's default settings.
/// Bound to a loopback address it accepts loopback browser origins, which the
/// suite's `dns-rebinding-protection` scenario sends, and refuses any other.
pub fn http_server() -> mcpdesc::http::HttpServer {
    mcpdesc::http::HttpServer::new(router())
}

/// The router of [`ConformanceServer`].
pub fn router() -> mcpdesc::Router {
    contract::router(ConformanceServer)
}

fn embedded_text(uri: &str, mime_type: &str, text: &str) -> Content {
    Content::Resource(EmbeddedResource {
        resource: ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
            meta: None,
        }),
        annotations: None,
        meta: None,
    })
}

/// A failed client request as the tool's error result.
fn client_failed(what: &str, error: mcpdesc::ClientError) -> ToolError {
    ToolError::new(format!("{what} failed: {error}"))
}

impl contract::TestSimpleText for ConformanceServer {
    async fn test_simple_text(
        &self,
        _: TestSimpleTextInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::text(
            "This is a simple text response for testing.",
        ))
    }
}

impl contract::TestImageContent for ConformanceServer {
    async fn test_image_content(
        &self,
        _: TestImageContentInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::new(vec![Content::image(PNG, "image/png")]))
    }
}

impl contract::TestAudioContent for ConformanceServer {
    async fn test_audio_content(
        &self,
        _: TestAudioContentInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::new(vec![Content::audio(WAV, "audio/wav")]))
    }
}

impl contract::TestEmbeddedResource for ConformanceServer {
    async fn test_embedded_resource(
        &self,
        _: TestEmbeddedResourceInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::new(vec![embedded_text(
            "test://embedded-resource",
            "text/plain",
            "This is an embedded resource content.",
        )]))
    }
}

impl contract::TestMultipleContentTypes for ConformanceServer {
    async fn test_multiple_content_types(
        &self,
        _: TestMultipleContentTypesInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::new(vec![
            Content::text("Multiple content types test:"),
            Content::image(PNG, "image/png"),
            embedded_text(
                "test://mixed-content-resource",
                "application/json",
                r#"{"test":"data","value":123}"#,
            ),
        ]))
    }
}

impl contract::TestToolWithLogging for ConformanceServer {
    async fn test_tool_with_logging(
        &self,
        _: TestToolWithLoggingInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        cx.log(LogLevel::Info, "Tool execution started").await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        cx.log(LogLevel::Info, "Tool processing data").await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        cx.log(LogLevel::Info, "Tool execution completed").await;
        Ok(ToolResult::text("Tool with logging executed successfully"))
    }
}

impl contract::TestToolWithProgress for ConformanceServer {
    async fn test_tool_with_progress(
        &self,
        _: TestToolWithProgressInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        for (step, progress) in [0.0, 50.0, 100.0].into_iter().enumerate() {
            if step > 0 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Sends nothing without the client's progress token.
            cx.progress(progress, Some(100.0), None).await;
        }
        Ok(ToolResult::text("Tool with progress executed successfully"))
    }
}

impl contract::TestErrorHandling for ConformanceServer {
    async fn test_error_handling(
        &self,
        _: TestErrorHandlingInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Err(ToolError::new(
            "This tool intentionally returns an error for testing",
        ))
    }
}

impl contract::TestSampling for ConformanceServer {
    async fn test_sampling(
        &self,
        input: TestSamplingInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let params = json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": input.prompt}}],
            "maxTokens": 100,
        });
        let answer = cx
            .create_message(params)
            .await
            .map_err(|e| client_failed("sampling", e))?;
        // The content is one block (or, from 2025-11-25, possibly a list).
        let content = match &answer["content"] {
            Value::Array(blocks) => blocks.first().cloned().unwrap_or(Value::Null),
            block => block.clone(),
        };
        let text = content["text"].as_str().unwrap_or("(no text)");
        Ok(ToolResult::text(format!("LLM response: {text}")))
    }
}

impl contract::TestElicitation for ConformanceServer {
    async fn test_elicitation(
        &self,
        input: TestElicitationInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        });
        let answer = cx
            .elicit_form(input.message, schema)
            .await
            .map_err(|e| client_failed("elicitation", e))?;
        Ok(ToolResult::text(format!(
            "User response: {}",
            serde_json::to_string(&answer).unwrap_or_default()
        )))
    }
}

/// Elicits `schema` and reports the answer as the two SEP scenarios expect.
async fn elicit_completed(
    cx: &Context,
    message: &str,
    schema: Value,
) -> Result<ToolResult, ToolError> {
    let answer = cx
        .elicit_form(message, schema)
        .await
        .map_err(|e| client_failed("elicitation", e))?;
    let action = serde_json::to_value(answer.action).unwrap_or_default();
    let content = Value::Object(answer.content.unwrap_or_default());
    Ok(ToolResult::text(format!(
        "Elicitation completed: action={}, content={content}",
        action.as_str().unwrap_or_default()
    )))
}

impl contract::TestElicitationSep1034Defaults for ConformanceServer {
    async fn test_elicitation_sep1034_defaults(
        &self,
        _: TestElicitationSep1034DefaultsInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
                "verified": {"type": "boolean", "default": true},
            },
        });
        elicit_completed(&cx, "Please review the defaults", schema).await
    }
}

impl contract::TestElicitationSep1330Enums for ConformanceServer {
    async fn test_elicitation_sep1330_enums(
        &self,
        _: TestElicitationSep1330EnumsInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {"type": "string", "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"},
                ]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                               "enumNames": ["Option One", "Option Two", "Option Three"]},
                "untitledMulti": {"type": "array", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]}},
            },
        });
        elicit_completed(&cx, "Please choose", schema).await
    }
}

impl contract::JsonSchema202012Tool for ConformanceServer {
    async fn json_schema_2020_12_tool(
        &self,
        _: JsonSchema202012ToolInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::text("ok"))
    }
}

impl contract::TestReconnection for ConformanceServer {
    async fn test_reconnection(
        &self,
        _: TestReconnectionInput,
        _: Context,
    ) -> Result<ToolResult, ToolError> {
        // Long enough for the client to lose and resume its stream.
        tokio::time::sleep(Duration::from_millis(500)).await;
        Ok(ToolResult::text("Reconnection test completed"))
    }
}

impl contract::TestSimplePromptPrompt for ConformanceServer {
    async fn get_test_simple_prompt(
        &self,
        _: TestSimplePromptArguments,
        _: Context,
    ) -> Result<PromptResult, RequestError> {
        Ok(PromptResult::new(vec![PromptMessage::user(
            "This is a simple prompt for testing.",
        )]))
    }
}

impl contract::TestPromptWithArgumentsPrompt for ConformanceServer {
    async fn get_test_prompt_with_arguments(
        &self,
        arguments: TestPromptWithArgumentsArguments,
        _: Context,
    ) -> Result<PromptResult, RequestError> {
        Ok(PromptResult::new(vec![PromptMessage::user(format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arguments.arg1, arguments.arg2
        ))]))
    }

    async fn complete_test_prompt_with_arguments(
        &self,
        request: CompletionRequest,
        _: Context,
    ) -> Result<CompletionResult, RequestError> {
        let values: Vec<String> = ["paris", "park", "party"]
            .into_iter()
            .filter(|v| v.starts_with(&request.value))
            .map(String::from)
            .collect();
        let total = values.len() as u64;
        Ok(CompletionResult::new(values).with_total(total, false))
    }
}

impl contract::TestPromptWithEmbeddedResourcePrompt for ConformanceServer {
    async fn get_test_prompt_with_embedded_resource(
        &self,
        arguments: TestPromptWithEmbeddedResourceArguments,
        _: Context,
    ) -> Result<PromptResult, RequestError> {
        Ok(PromptResult::new(vec![
            PromptMessage::new(
                Role::User,
                embedded_text(
                    &arguments.resource_uri,
                    "text/plain",
                    "Embedded resource content for testing.",
                ),
            ),
            PromptMessage::user("Please process the embedded resource above."),
        ]))
    }
}

impl contract::TestPromptWithImagePrompt for ConformanceServer {
    async fn get_test_prompt_with_image(
        &self,
        _: TestPromptWithImageArguments,
        _: Context,
    ) -> Result<PromptResult, RequestError> {
        Ok(PromptResult::new(vec![
            PromptMessage::new(Role::User, Content::image(PNG, "image/png")),
            PromptMessage::user("Please analyze the image above."),
        ]))
    }
}

impl contract::StaticTextResource for ConformanceServer {
    async fn read_static_text(&self, _: Context) -> Result<ResourceResult, RequestError> {
        Ok(ResourceResult::text(
            "test://static-text",
            "text/plain",
            "This is the content of the static text resource.",
        ))
    }
}

impl contract::StaticBinaryResource for ConformanceServer {
    async fn read_static_binary(&self, _: Context) -> Result<ResourceResult, RequestError> {
        Ok(ResourceResult::new(vec![ResourceContents::Blob(
            BlobResourceContents {
                uri: "test://static-binary".into(),
                mime_type: Some("image/png".into()),
                blob: PNG.into(),
                meta: None,
            },
        )]))
    }
}

impl contract::WatchedResourceResource for ConformanceServer {
    async fn read_watched_resource(&self, cx: Context) -> Result<ResourceResult, RequestError> {
        // Reading it counts as a change, so a subscribed client hears of it.
        cx.changes()
            .resource_updated("test://watched-resource")
            .await;
        Ok(ResourceResult::text(
            "test://watched-resource",
            "text/plain",
            "Watched resource content.",
        ))
    }
}

impl contract::TemplateDataTemplate for ConformanceServer {
    async fn read_template_data(
        &self,
        uri: String,
        variables: TemplateDataVariables,
        _: Context,
    ) -> Result<ResourceResult, RequestError> {
        let id = variables.id;
        let text = json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
        Ok(ResourceResult::text(
            uri,
            "application/json",
            text.to_string(),
        ))
    }
}
