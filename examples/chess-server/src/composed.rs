//! Composition: the generated chess server (its tools, prompt, resource, resource
//! template and completions) served beside a hand-written rmcp prompt, with
//! instructions of the server's own. Nothing of the runtime is copied: the handler
//! delegates every method it does not add to to an [`McpServer`] and adds its prompt.
//!
//! Serve it like any rmcp handler, keeping the members rmcp's `Tool` type drops:
//!
//! ```no_run
//! # async fn f() -> Result<(), Box<dyn std::error::Error>> {
//! use chess_server::composed::ChessWithPrompts;
//! use mcpdesc::rmcp::ServiceExt;
//!
//! // stdio
//! let server = ChessWithPrompts::new(chess_server::router());
//! let listings = server.tools.tool_listings().clone();
//! mcpdesc::RestoreDropped::new(server, listings)
//!     .serve(mcpdesc::rmcp::transport::stdio()).await?.waiting().await?;
//!
//! // streamable HTTP: one handler per session
//! let server = ChessWithPrompts::new(chess_server::router());
//! let listings = server.tools.tool_listings().clone();
//! mcpdesc::http::HttpServer::with_handler(move || server.new_session())
//!     .restore_tool_members(listings)
//!     .serve("127.0.0.1:8080").await?;
//! # Ok(()) }
//! ```

use mcpdesc::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, InitializeRequestParams,
    InitializeResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    ListToolsResult, PaginatedRequestParams, Prompt, PromptArgument, PromptMessage,
    ReadResourceRequestParams, ReadResourceResponse, Role, ServerCapabilities, ServerConfig, Tool,
};
use mcpdesc::rmcp::service::RequestContext;
use mcpdesc::rmcp::{ErrorData, RoleServer, ServerHandler};
use mcpdesc::McpServer;

/// The server's own instructions, in place of the description's.
pub const INSTRUCTIONS: &str =
    "Ask for the explain_opening prompt first, then analyze the game with analyze_game.";

/// The generated chess tools plus the hand-written `explain_opening` prompt.
#[derive(Debug, Clone)]
pub struct ChessWithPrompts {
    /// The generated tools.
    pub tools: McpServer,
}

impl ChessWithPrompts {
    /// Serves `router`'s tools beside the prompt.
    pub fn new(router: mcpdesc::Router) -> Self {
        ChessWithPrompts {
            tools: McpServer::new(router),
        }
    }

    /// A handler for another MCP session (see [`McpServer::new_session`]).
    pub fn new_session(&self) -> Self {
        ChessWithPrompts {
            tools: self.tools.new_session(),
        }
    }

    fn explain_opening() -> Prompt {
        Prompt::new(
            "explain_opening",
            Some("Explain the opening of a game to a club player"),
            Some(vec![PromptArgument::new("pgn")
                .with_description("The game in PGN")
                .with_required(true)]),
        )
    }

    /// Adds what this handler serves to the generated server's capabilities.
    fn with_prompts(mut capabilities: ServerCapabilities) -> ServerCapabilities {
        capabilities.prompts.get_or_insert_with(Default::default);
        capabilities
    }
}

impl ServerHandler for ChessWithPrompts {
    fn get_info(&self) -> ServerConfig {
        let mut info = self.tools.get_info();
        info.instructions = Some(INSTRUCTIONS.into());
        info.capabilities = Self::with_prompts(info.capabilities);
        info
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [mcpdesc::rmcp::model::ProtocolVersion]> {
        self.tools.supported_protocol_versions()
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // The generated server answers with the negotiated version's capabilities.
        let mut result = self.tools.initialize(request, context).await?;
        result.instructions = Some(INSTRUCTIONS.into());
        result.capabilities = Self::with_prompts(result.capabilities);
        Ok(result)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.tools.list_tools(request, context).await
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.tools.call_tool(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.get_tool(name)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        // The description's own prompts, if it has any, then this one.
        let mut prompts = self
            .tools
            .list_prompts(request, context)
            .await
            .map(|list| list.prompts)
            .unwrap_or_default();
        prompts.push(Self::explain_opening());
        Ok(ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "explain_opening" {
            return self.tools.get_prompt(request, context).await;
        }
        let pgn = request
            .arguments
            .as_ref()
            .and_then(|args| args.get("pgn"))
            .and_then(|pgn| pgn.as_str())
            .ok_or_else(|| ErrorData::invalid_params("the `pgn` argument is required", None))?;
        let text = format!("Explain the opening of this game to a club player:\n\n{pgn}");
        Ok(GetPromptResponse::from(
            GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
                .with_description("Explain the opening"),
        ))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.tools.list_resources(request, context).await
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.tools.list_resource_templates(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.tools.read_resource(request, context).await
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.tools.complete(request, context).await
    }
}
