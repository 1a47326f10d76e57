//! The generic functions generated code calls so that each tool, prompt, resource and
//! template costs one line instead of a repeated body: the router's handlers built from
//! one call of a handler trait method, the default `{tool}_with_content`, and the mock's
//! plain method. Reached through `mcpdesc::__private`.

use std::sync::Arc;

/// The router's handler of a tool with `outputSchema`, from the call of its trait
/// method: the arguments parsed into `I`, `call(server, input, cx)` awaited, the
/// typed output written as `structuredContent` plus its text block. Generated
/// routers register each such tool with one line,
/// `.tool(SPEC, tool_output(&server, |s, input, cx| async move { Tool::tool_with_content(&*s, input, cx).await }))`,
/// instead of repeating this body per tool.
pub fn tool_output<S, I, O, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    serde_json::Value,
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::ToolResult, crate::ToolError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    I: serde::de::DeserializeOwned,
    O: serde::Serialize,
    F: Fn(Arc<S>, I, crate::Context) -> Fut + Send + Sync + 'static,
    Fut:
        ::core::future::Future<Output = Result<crate::Typed<O>, crate::ToolError>> + Send + 'static,
{
    // The same handler as `tool_result`, with the typed output shaped into a result.
    tool_result(server, move |server, input, cx| {
        let output = call(server, input, cx);
        async move { crate::ToolResult::from_typed(output.await?) }
    })
}

/// [`tool_output`] for a tool without `outputSchema`: the trait method returns the
/// whole result.
pub fn tool_result<S, I, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    serde_json::Value,
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::ToolResult, crate::ToolError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    I: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, I, crate::Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<crate::ToolResult, crate::ToolError>>
        + Send
        + 'static,
{
    let server = Arc::clone(server);
    move |args, cx| {
        let call =
            crate::parse_arguments::<I>(args).map(|input| call(Arc::clone(&server), input, cx));
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
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::PromptResult, crate::RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    A: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, A, crate::Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<crate::PromptResult, crate::RequestError>>
        + Send
        + 'static,
{
    let server = Arc::clone(server);
    move |args, cx| {
        let call = crate::__private::parse_request::<A>(serde_json::Value::Object(args))
            .map(|arguments| call(Arc::clone(&server), arguments, cx));
        Box::pin(async move { call?.await })
    }
}

/// The router's handler of a resource: `call(server, cx)`.
pub fn resource_handler<S, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    String,
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::ResourceResult, crate::RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, crate::Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<crate::ResourceResult, crate::RequestError>>
        + Send
        + 'static,
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
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::ResourceResult, crate::RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    V: serde::de::DeserializeOwned,
    F: Fn(Arc<S>, String, V, crate::Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<crate::ResourceResult, crate::RequestError>>
        + Send
        + 'static,
{
    let server = Arc::clone(server);
    move |uri, variables, cx| {
        let call = crate::__private::parse_request::<V>(variables)
            .map(|variables| call(Arc::clone(&server), uri, variables, cx));
        Box::pin(async move { call?.await })
    }
}

/// The router's handler of a completion target: `call(server, request, cx)`.
pub fn completion_handler<S, F, Fut>(
    server: &Arc<S>,
    call: F,
) -> impl Fn(
    crate::CompletionRequest,
    crate::Context,
) -> crate::BoxFuture<'static, Result<crate::CompletionResult, crate::RequestError>>
       + Send
       + Sync
       + 'static
where
    S: Send + Sync + 'static,
    F: Fn(Arc<S>, crate::CompletionRequest, crate::Context) -> Fut + Send + Sync + 'static,
    Fut: ::core::future::Future<Output = Result<crate::CompletionResult, crate::RequestError>>
        + Send
        + 'static,
{
    let server = Arc::clone(server);
    move |request, cx| Box::pin(call(Arc::clone(&server), request, cx))
}

/// The default `{tool}_with_content` of a generated handler trait: the output of
/// the plain method, without extra content blocks.
pub async fn typed<O>(
    output: impl ::core::future::Future<Output = Result<O, crate::ToolError>>,
) -> Result<crate::Typed<O>, crate::ToolError> {
    Ok(crate::Typed::new(output.await?))
}

/// The plain method of a handler whose `{tool}_with_content` answers (the
/// `ExampleServer` mock): its output alone.
pub async fn output<O>(
    typed: impl ::core::future::Future<Output = Result<crate::Typed<O>, crate::ToolError>>,
) -> Result<O, crate::ToolError> {
    Ok(typed.await?.output)
}
