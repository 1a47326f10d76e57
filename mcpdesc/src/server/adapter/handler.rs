//! [`McpServer`] as rmcp's `ServerHandler`: each MCP request through the router, the
//! results built as rmcp's types.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::{model as m, ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use super::convert::{
    capabilities_json, from_values, from_wire, negotiated, to_error_data, to_rmcp_tool,
};
use super::http_marks::{marked_stateless, shared_tasks, stateless_http};
use super::mcp_server::McpServer;
use crate::auth;
use crate::protocol::completions::{CompletionRequest, CompletionTarget};
use crate::protocol::content::ShapedBlock;
use crate::protocol::result::ToolResult;
use crate::protocol::version::{to_rmcp_version, ProtocolVersion};
use crate::server::input_rounds::{InputRequired, InputRounds};
use crate::server::notifications::LogLevel;
use crate::tasks::support::TaskSupport;

impl ServerHandler for McpServer {
    fn get_info(&self) -> m::ServerConfig {
        let info = self.router.info();
        let mut implementation = m::Implementation::new(info.name.clone(), info.version.clone());
        if let Some(title) = &info.title {
            implementation = implementation.with_title(title.clone());
        }
        if let Some(description) = &info.description {
            implementation = implementation.with_description(description.clone());
        }
        if let Some(url) = &info.website_url {
            implementation = implementation.with_website_url(url.clone());
        }
        // The fallback answer: the newest version we speak; `initialize` replaces
        // the version and its capabilities with the negotiated ones.
        let newest = info.protocol_versions.iter().max().copied();
        let capabilities = newest
            .map(|v| self.capabilities(v, false))
            .unwrap_or_default();
        let mut config = m::ServerConfig::new(capabilities).with_server_info(implementation);
        if let Some(instructions) = &info.instructions {
            config = config.with_instructions(instructions.clone());
        }
        if let Some(newest) = newest {
            config = config.with_protocol_version(to_rmcp_version(newest));
        }
        config
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [m::ProtocolVersion]> {
        Cow::Owned(self.versions())
    }

    async fn initialize(
        &self,
        request: m::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        // The capabilities of the negotiated version, not of the newest; a
        // stateless server advertises no `tasks` (`http/stateless.rs`) unless it
        // keeps them in a shared store (`shared_tasks.rs`).
        if let Ok(version) = result.protocol_version.as_str().parse() {
            let untasked = marked_stateless(&context) && !shared_tasks(&context);
            result.capabilities = self.capabilities(version, untasked);
            self.join(version, &context);
            // A replayed `initialize` (a restore) names its session: what the
            // session set before comes back (`kept`).
            self.restore_kept(version, &context).await;
        }
        Ok(result)
    }

    // rmcp deprecates logging for MCP 2026-07-28 (SEP-2577); the earlier versions
    // served here have it.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: m::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        // 2026-07-28 has no `logging/setLevel` (the level rides in each request's
        // `_meta`); earlier versions have it when the server declares `logging`.
        if version >= ProtocolVersion::V2026_07_28 || !self.router.logging(version) {
            return Err(ErrorData::method_not_found::<m::SetLevelRequestMethod>());
        }
        let level: LogLevel = serde_json::to_value(request.level)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
            .ok_or_else(|| ErrorData::invalid_params("unknown log level", None))?;
        self.join(version, &context).set_level(level);
        self.keep_log_level(&context, level).await
    }

    async fn list_tools(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListToolsResult, ErrorData> {
        let version = negotiated(&context)?;
        // Without a session no tool runs as a task: none is listed with
        // `execution.taskSupport` (the `http` module's write-back agrees), unless
        // tasks are kept in a shared store.
        let tasks = !stateless_http(&context) || shared_tasks(&context);
        let mut tools = Vec::new();
        for native in self.listings.listing(version, tasks) {
            let name = native["name"].as_str().unwrap_or_default();
            match to_rmcp_tool(native.clone()) {
                Ok(tool) => tools.push(tool),
                // Only a declaration the description validator rejects gets here.
                Err(e) => eprintln!("mcpdesc: tool `{name}` left out of tools/list: {e}"),
            }
        }
        Ok(m::ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<m::Tool> {
        // Asked without a request (for 2026-07-28 `Mcp-Param-*` header checks): the
        // tool as the newest version that serves it lists it.
        self.router
            .info()
            .protocol_versions
            .iter()
            .rev()
            .find_map(|v| {
                self.listings
                    .tools(*v)
                    .iter()
                    .find(|t| t["name"] == name)
                    .cloned()
            })
            .and_then(|tool| to_rmcp_tool(tool).ok())
    }

    async fn list_prompts(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListPromptsResult, ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        let prompts = from_values(self.router.list_prompts(version), "prompt")?;
        Ok(m::ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: m::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::GetPromptResponse, ErrorData> {
        let version = negotiated(&context)?;
        let target = || auth::policy::Target::Prompt(request.name.clone());
        let auth = self.authorize(target, version, &context)?;
        let arguments = request.arguments.map(Value::Object);
        let rounds = Self::primitive_rounds(
            version,
            &format!("prompts/get {}", request.name),
            arguments.as_ref(),
            request.request_state.as_deref(),
            request.input_responses,
            &context,
        )?;
        let cx = self.primitive_context(version, rounds.clone(), &context, auth);
        let arguments = match arguments {
            Some(Value::Object(map)) => Some(map),
            _ => None,
        };
        let result = self.router.get_prompt(&request.name, arguments, cx).await;
        // A handler that asked for input failed with it (`?`): the round's requests
        // are the answer, not its error.
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::GetPromptResponse::InputRequired);
        }
        let result = result.map_err(to_error_data)?;
        from_wire(result.to_wire(version), "prompt result").map(m::GetPromptResponse::Complete)
    }

    async fn list_resources(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourcesResult, ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        let resources = from_values(self.router.list_resources(version), "resource")?;
        Ok(m::ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourceTemplatesResult, ErrorData> {
        let version = negotiated(&context)?;
        let templates = from_values(
            self.router.list_resource_templates(version),
            "resource template",
        )?;
        Ok(m::ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: m::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ReadResourceResponse, ErrorData> {
        let version = negotiated(&context)?;
        let target = || auth::policy::Target::Resource(request.uri.clone());
        let auth = self.authorize(target, version, &context)?;
        let rounds = Self::primitive_rounds(
            version,
            &format!("resources/read {}", request.uri),
            None,
            request.request_state.as_deref(),
            request.input_responses,
            &context,
        )?;
        let cx = self.primitive_context(version, rounds.clone(), &context, auth);
        let result = self.router.read_resource(&request.uri, cx).await;
        // As for a prompt: the round's requests are the answer.
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::ReadResourceResponse::InputRequired);
        }
        let result = result.map_err(to_error_data)?;
        from_wire(result.to_wire(version), "read result").map(m::ReadResourceResponse::Complete)
    }

    async fn complete(
        &self,
        request: m::CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CompleteResult, ErrorData> {
        let version = negotiated(&context)?;
        let target = match &request.r#ref {
            m::Reference::Prompt(p) => CompletionTarget::prompt(p.name.clone()),
            m::Reference::Resource(r) => CompletionTarget::resource_template(r.uri.clone()),
            #[allow(unreachable_patterns)] // rmcp's enum is non-exhaustive.
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown completion reference type",
                    None,
                ))
            }
        };
        let mut completion = CompletionRequest::new(request.argument.name, request.argument.value);
        if let Some(arguments) = request.context.and_then(|c| c.arguments) {
            completion.context = arguments.into_iter().collect();
        }
        let completion_target = || auth::policy::Target::Completion(target.clone());
        let auth = self.authorize(completion_target, version, &context)?;
        let cx = self.primitive_context(version, None, &context, auth);
        let result = self
            .router
            .complete(&target, completion, cx)
            .await
            .map_err(to_error_data)?;
        from_wire(result.to_wire(version), "completion result")
    }

    // rmcp deprecates `resources/subscribe` for MCP 2026-07-28 (it has
    // `subscriptions/listen`); the earlier versions served here have it.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: m::SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = self.subscription_version(&context)?;
        self.join(version, &context).subscribe(&request.uri);
        self.keep_subscription(&context, &request.uri, true).await
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: m::UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = self.subscription_version(&context)?;
        self.join(version, &context).unsubscribe(&request.uri);
        self.keep_subscription(&context, &request.uri, false).await
    }

    async fn on_custom_request(
        &self,
        request: m::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CustomResult, ErrorData> {
        self.task_request(request, context).await
    }

    async fn call_tool(
        &self,
        request: m::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CallToolResponse, ErrorData> {
        let version = negotiated(&context)?;
        let auth = self.authorize(
            || auth::policy::Target::Tool(request.name.to_string()),
            version,
            &context,
        )?;
        // A task-augmented call arrives as a custom request (`tasks::wire`); a plain
        // call of a tool that only runs as a task is refused, except where no tool
        // runs as a task (stateless HTTP): there it is listed and served plainly.
        if self.router.task_support(&request.name, version).ok() == Some(TaskSupport::Required)
            && (!stateless_http(&context) || shared_tasks(&context))
        {
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "the tool `{}` runs only as a task (its execution.taskSupport is \
                     required): call it with `task`",
                    request.name
                ),
                None,
            ));
        }
        let arguments = request.arguments.map(Value::Object);
        // From 2026-07-28 on there are no server-to-client requests during a call:
        // client input goes through input-required results, and the handler is
        // replayed (input_rounds.rs).
        let rounds = if version >= ProtocolVersion::V2026_07_28 {
            let rounds = InputRounds::resume(
                &request.name,
                arguments.as_ref(),
                request.request_state.as_deref(),
                request.input_responses.unwrap_or_default(),
                capabilities_json(context.client_capabilities().as_ref()),
            )
            .map_err(|message| ErrorData::invalid_params(message, None))?;
            Some(Arc::new(rounds))
        } else {
            None
        };
        let cx = self.context(version, rounds.clone(), &context, auth);
        let result = self
            .router
            .call_tool(&request.name, arguments, cx)
            .await
            .map_err(to_error_data)?;
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::CallToolResponse::InputRequired);
        }
        to_complete(result, version)
    }
}

/// A tool result as rmcp's completed `tools/call` response for `version`: the result
/// shaped as [`ToolResult::to_wire`] shapes it, built as rmcp's type directly (plain
/// text blocks, the structured output and `_meta` are moved, not written to JSON and
/// parsed back; only other content blocks go through their wire JSON).
fn to_complete(
    result: ToolResult,
    version: ProtocolVersion,
) -> Result<m::CallToolResponse, ErrorData> {
    let shaped = result.shape(version);
    let cannot_send = |e: serde_json::Error| {
        ErrorData::internal_error(format!("the tool result cannot be sent: {e}"), None)
    };
    let mut content = Vec::with_capacity(shaped.content.len());
    for block in shaped.content {
        content.push(match block {
            ShapedBlock::Text(text) => m::ContentBlock::text(text),
            ShapedBlock::Wire(wire) => serde_json::from_value(wire).map_err(cannot_send)?,
        });
    }
    let mut complete = m::CallToolResult::default();
    complete.result_type = version.has_result_type().then_some(m::ResultType::COMPLETE);
    complete.content = content;
    complete.structured_content = shaped.structured_content;
    complete.is_error = shaped.is_error;
    complete.meta = shaped.meta.map(m::MetaObject);
    Ok(m::CallToolResponse::Complete(complete))
}

/// The requests a round left unanswered as rmcp's input-required result.
fn to_input_required(input: InputRequired) -> Result<m::InputRequiredResult, ErrorData> {
    let mut requests = m::InputRequests::new();
    for (key, request) in input.requests {
        let request = serde_json::from_value(request).map_err(|e| {
            ErrorData::internal_error(
                format!("the input request `{key}` cannot be sent: {e}"),
                None,
            )
        })?;
        requests.insert(key, request);
    }
    Ok(m::InputRequiredResult::new(
        Some(requests),
        Some(input.request_state),
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::content::{Annotations, Content, Meta};

    fn meta(key: &str) -> Meta {
        let mut meta = Meta::new();
        meta.insert(key.into(), json!(1));
        meta
    }

    /// Results that take every branch of the shaping: plain and annotated text, other
    /// block kinds (audio and links that some versions lack), structured content that
    /// is and is not an object, errors, `_meta`.
    fn results() -> Vec<ToolResult> {
        let annotations = Annotations {
            priority: Some(0.5),
            last_modified: Some("2025-01-01T00:00:00Z".into()),
            ..Default::default()
        };
        vec![
            ToolResult::text("plain"),
            ToolResult::structured(json!({"greeting": "Hello", "length": 5})),
            ToolResult::structured(json!([1, 2])),
            ToolResult::structured(json!("text")),
            ToolResult {
                content: vec![],
                structured_content: Some(json!([1])),
                ..Default::default()
            },
            ToolResult::error("bad input"),
            ToolResult {
                structured_content: Some(json!({"kept": false})),
                ..ToolResult::error("an error never carries structuredContent")
            },
            ToolResult::new(vec![
                Content::text("annotated").with_annotations(annotations.clone()),
                Content::text("with meta").with_meta(meta("block")),
                Content::image("aGk=", "image/png"),
                Content::audio("aGk=", "audio/wav").with_annotations(annotations),
                Content::resource_link("file:///a.txt", "a"),
                Content::embedded_text("file:///b.txt", "b", Some("text/plain")),
            ])
            .with_meta(meta("result")),
            ToolResult {
                is_error: Some(false),
                ..ToolResult::structured(json!({"n": 1}))
            },
        ]
    }

    /// Building rmcp's result directly gives what parsing the wire JSON gave before.
    #[test]
    fn the_direct_result_equals_the_wire_json_parsed() {
        for result in results() {
            for &version in ProtocolVersion::ALL {
                let direct = match to_complete(result.clone(), version).unwrap() {
                    m::CallToolResponse::Complete(r) => r,
                    other => panic!("not complete: {other:?}"),
                };
                let wire = result.to_wire(version);
                let parsed: m::CallToolResult = serde_json::from_value(wire.clone()).unwrap();
                assert_eq!(direct, parsed, "{result:?} in {version}");
                assert_eq!(serde_json::to_value(&direct).unwrap(), wire, "{version}");
            }
        }
    }
}
