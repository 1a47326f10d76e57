//! The generic functions generated code calls so that each tool, prompt, resource and
//! template costs one line instead of a repeated body: the router's handlers built from
//! one call of a handler trait method, the default `{tool}_with_content`, and the mock's
//! plain method; [`parse_arguments`] and the other small helpers of generated code.
//! Reached through `mcpdesc::__private` (and `mcpdesc::parse_arguments`).

use std::sync::Arc;

use super::context::Context;
use crate::protocol::completions::{CompletionRequest, CompletionResult};
use crate::protocol::error::{RequestError, ToolError};
use crate::protocol::futures::BoxFuture;
use crate::protocol::prompts::PromptResult;
use crate::protocol::resources::ResourceResult;
use crate::protocol::result::{ToolResult, Typed};

/// The router's handler of a tool with `outputSchema`, from the call of its trait
/// method: the arguments parsed into `I`, `call(server, input, cx)` awaited, the
/// typed output written as `structuredContent` plus its text block. Generated
/// routers register each such tool with one line,
/// `.tool(SPEC, tool_output(&server, |s, input, cx| async move { Tool::tool_with_content(&*s, input, cx).await }))`,
/// instead of repeating this body per tool.
pub fn tool_output<S, I, O, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(serde_json::Value, Context) -> BoxFuture<'static, Result<ToolResult, ToolError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    I: serde::de::DeserializeOwned,
    O: serde::Serialize,
    F: Fn(Arc<S>, I, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<Typed<O>, ToolError>> + Send + 'static,
{
    // The same handler as `tool_result`, with the typed output shaped into a result.
    tool_result(server, move |server, input, cx| {
        let output = call(server, input, cx);
        async move { ToolResult::from_typed(output.await?) }
    })
}

/// [`tool_output`] for a tool without `outputSchema`: the trait method returns the
/// whole result.
pub fn tool_result<S, I, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(serde_json::Value, Context) -> BoxFuture<'static, Result<ToolResult, ToolError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    I: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, I, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<ToolResult, ToolError>> + Send + 'static,
{
    let server = Arc::clone(server);
    move |args, cx| {
        let call = parse_arguments::<I>(args).map(|input| call(Arc::clone(&server), input, cx));
        Box::pin(async move { call?.await })
    }
}

/// The router's handler of a prompt: the arguments parsed into `A` (a failure is
/// "Invalid params"), then `call(server, arguments, cx)`.
pub fn prompt_handler<S, A, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    serde_json::Map<String, serde_json::Value>,
    Context,
) -> BoxFuture<'static, Result<PromptResult, RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    A: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, A, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<PromptResult, RequestError>> + Send + 'static,
{
    let server = Arc::clone(server);
    move |args, cx| {
        let call = parse_request::<A>(serde_json::Value::Object(args))
            .map(|arguments| call(Arc::clone(&server), arguments, cx));
        Box::pin(async move { call?.await })
    }
}

/// The router's handler of a resource: `call(server, cx)`.
pub fn resource_handler<S, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(String, Context) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<ResourceResult, RequestError>> + Send + 'static,
{
    let server = Arc::clone(server);
    move |_uri, cx| Box::pin(call(Arc::clone(&server), cx))
}

/// The router's handler of a resource template: the URI's variables parsed into
/// `V`, then `call(server, uri, variables, cx)`.
pub fn template_handler<S, V, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    String,
    serde_json::Value,
    Context,
) -> BoxFuture<'static, Result<ResourceResult, RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    V: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, String, V, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<ResourceResult, RequestError>> + Send + 'static,
{
    let server = Arc::clone(server);
    move |uri, variables, cx| {
        let call = parse_request::<V>(variables)
            .map(|variables| call(Arc::clone(&server), uri, variables, cx));
        Box::pin(async move { call?.await })
    }
}

/// The router's handler of a completion target: `call(server, request, cx)`.
pub fn completion_handler<S, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(CompletionRequest, Context) -> BoxFuture<'static, Result<CompletionResult, RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, CompletionRequest, Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<CompletionResult, RequestError>> + Send + 'static,
{
    let server = Arc::clone(server);
    move |request, cx| Box::pin(call(Arc::clone(&server), request, cx))
}

/// The default `{tool}_with_content` of a generated handler trait: the output of
/// the plain method, without extra content blocks.
pub async fn typed<O>(
    output: impl ::core::future::Future<Output = Result<O, ToolError>>,
) -> Result<Typed<O>, ToolError> {
    Ok(Typed::new(output.await?))
}

/// The plain method of a handler whose `{tool}_with_content` answers (the
/// `ExampleServer` mock): its output alone.
pub async fn output<O>(
    typed: impl ::core::future::Future<Output = Result<Typed<O>, ToolError>>,
) -> Result<O, ToolError> {
    Ok(typed.await?.output)
}

/// Deserializes a tool's arguments into its input type.
///
/// The router has already checked them against the `inputSchema`; a failure here means
/// the Rust type and the schema disagree, and it becomes an `isError` result with the
/// serde message.
///
/// ```
/// #[derive(Debug, serde::Deserialize)]
/// struct Input { pgn: String }
///
/// let input: Input = mcpdesc::parse_arguments(serde_json::json!({"pgn": "1. e4"})).unwrap();
/// assert_eq!(input.pgn, "1. e4");
/// let err = mcpdesc::parse_arguments::<Input>(serde_json::json!({})).unwrap_err();
/// assert_eq!(err.message(), "Invalid arguments: missing field `pgn`");
/// ```
pub fn parse_arguments<T: serde::de::DeserializeOwned>(
    arguments: serde_json::Value,
) -> Result<T, ToolError> {
    serde_json::from_value(arguments).map_err(|e| ToolError::invalid_arguments(&e))
}

/// Deserializes prompt arguments or template variables into their generated type;
/// a failure is an "Invalid params" error with the serde message.
pub fn parse_request<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, RequestError> {
    serde_json::from_value(value)
        .map_err(|e| RequestError::invalid_params(format!("Invalid arguments: {e}")))
}

/// Boxes a handler's future into the router's [`BoxFuture`].
pub fn boxed<'a, F>(future: F) -> BoxFuture<'a, F::Output>
where
    F: ::core::future::Future + Send + 'a,
{
    Box::pin(future)
}

/// The first keyword of `schema` that only the full validator checks, as
/// `` `pointer`: `keyword` ``, or `None` when the built-in validator checks it
/// whole. The generator keeps a copy of this list; a test keeps them equal.
pub fn full_validator_keyword(schema: &serde_json::Value) -> Option<String> {
    crate::schema::validator::full_validator_keyword_of(schema)
}
