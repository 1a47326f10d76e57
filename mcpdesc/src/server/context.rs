//! The per-call context of a tool handler: the negotiated protocol version, a handle
//! for requests to the client (elicitation, sampling, roots), the call's cancellation
//! signal, and progress and log notifications.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::notifications::{log_params, LogLevel, Notifier, ProgressState};
use super::subscriptions::ChangeNotifier;
use crate::auth::principal::{Authentication, Principal};
use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::version::ProtocolVersion;

/// The client side of a connection, as seen by a tool: the three requests an MCP server
/// may send to its client while it handles a `tools/call`.
///
/// Parameters and results are the native MCP JSON objects of the negotiated version
/// (`elicitation/create` params, `sampling/createMessage` params, and the results of
/// those and of `roots/list`). Keeping them as JSON lets a scripted test client compare
/// them with the steps of an interaction example and answer with the step's response.
///
/// The `rmcp` feature implements it over a live connection; a test can implement it
/// with canned answers:
///
/// ```
/// use std::sync::Arc;
/// use mcpdesc::{BoxFuture, ClientError, ClientPeer, Context, ElicitAction, ProtocolVersion};
/// use serde_json::{json, Value};
///
/// struct AlwaysAccept;
/// impl ClientPeer for AlwaysAccept {
///     fn elicit(&self, _params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
///         Box::pin(async { Ok(json!({"action": "accept", "content": {"ok": true}})) })
///     }
///     fn create_message(&self, _params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
///         Box::pin(async { Err(ClientError::Unsupported("no sampling here".into())) })
///     }
///     fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
///         Box::pin(async { Ok(json!({"roots": []})) })
///     }
/// }
///
/// let cx = Context::with_peer(ProtocolVersion::V2025_11_25, Arc::new(AlwaysAccept));
/// let answer = futures::executor::block_on(cx.elicit_form("Confirm?", json!({"type": "object", "properties": {"ok": {"type": "boolean"}}}))).unwrap();
/// assert_eq!(answer.action, ElicitAction::Accept);
/// ```
pub trait ClientPeer: Send + Sync {
    /// Sends `elicitation/create` with these params and returns the client's result.
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>>;
    /// Sends `sampling/createMessage` with these params and returns the client's result.
    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>>;
    /// Sends `roots/list` and returns the client's result (`{"roots": [...]}`).
    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>>;
    /// A peer whose requests are named `key` where the protocol names them (the
    /// `inputRequests` key of an MCP 2026-07-28 input-required result), or `None`
    /// when requests carry no name here (the default: before 2026-07-28 a request is
    /// identified by its JSON-RPC id). See [`Context::input_key`].
    fn keyed(&self, key: &str) -> Option<Arc<dyn ClientPeer>> {
        let _ = key;
        None
    }
}

/// What a handler knows about the call beyond its arguments, and what it can tell
/// the client while it runs.
///
/// - **Client requests**: [`Context::elicit`], [`Context::create_message`],
///   [`Context::list_roots`].
/// - **Cancellation**: [`Context::cancelled`] resolves and [`Context::is_cancelled`]
///   turns true when the client cancels the call (`notifications/cancelled`) or the
///   connection ends. Cancellation is cooperative: the handler is not stopped, it
///   should notice and return early (whatever it returns is not sent: MCP answers
///   no cancelled request).
/// - **Progress**: [`Context::progress`] sends `notifications/progress` when the
///   client asked for progress (a `progressToken` in the request's `_meta`), and
///   does nothing otherwise.
/// - **Logging**: [`Context::log`] sends `notifications/message` when the
///   description declares the `logging` capability for the session's version and the
///   client wants the level (see [`Context::log`]), and does nothing otherwise.
///
/// # MCP 2026-07-28
///
/// From 2026-07-28 on a server sends no request to the client during a call; the
/// `McpServer` adapter carries the requests in input-required
/// results instead and *replays* the handler: a request with no answer yet fails with
/// [`ClientError::InputRequired`] (pass it on with `?`), the round ends, and when the
/// client retries with the answer the handler runs again from the start, this time
/// getting the answer at once. Code before a handler's last client request therefore
/// runs once per round: keep it free of side effects, or idempotent. Earlier versions
/// send the requests during the call and run the handler once.
///
/// Each round is a `tools/call` request of its own, so in 2026-07-28:
/// - cancellation concerns the current round (the client cancels the request it
///   has open);
/// - progress goes to the progress token of the current round's request; a handler
///   that reports progress before a client request reports it again in the next
///   round (values restart, which is allowed: each round has its own token);
/// - log messages are sent per round too, at the level the round's request names in
///   its `_meta` (`io.modelcontextprotocol/logLevel`); a message logged before a
///   client request is sent again in each round.
///
/// Cloning is cheap. [`Context::new`] builds one without a client, for unit tests:
///
/// ```
/// use mcpdesc::{ClientError, Context, ProtocolVersion};
///
/// let cx = Context::new(ProtocolVersion::V2025_11_25);
/// assert_eq!(cx.protocol_version(), ProtocolVersion::V2025_11_25);
/// let err = futures::executor::block_on(cx.list_roots()).unwrap_err();
/// assert!(matches!(err, ClientError::NotConnected("roots/list")));
/// assert!(!cx.is_cancelled());
/// ```
#[derive(Clone)]
pub struct Context {
    version: ProtocolVersion,
    peer: Option<Arc<dyn ClientPeer>>,
    cancellation: CancellationToken,
    notifier: Option<Arc<dyn Notifier>>,
    progress: Option<Arc<ProgressState>>,
    /// The least severe level the client wants; `None`: no log messages.
    log_level: Option<LogLevel>,
    /// What the request authenticated, and which principal satisfied the
    /// requirement.
    auth: Option<(Arc<Authentication>, Option<usize>)>,
    /// The capabilities the client declared (MCP JSON), when known.
    client_capabilities: Option<Arc<Value>>,
    /// The server's sessions, for change notifications.
    changes: ChangeNotifier,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("version", &self.version)
            .field("connected", &self.peer.is_some())
            .field("cancelled", &self.cancellation.is_cancelled())
            .field("notifier", &self.notifier.is_some())
            .field("progress_token", &self.progress.as_ref().map(|p| &p.token))
            .field("log_level", &self.log_level)
            .field("principal", &self.principal().map(Principal::subject))
            .finish()
    }
}

impl Context {
    /// A context without a client: every client request fails with
    /// [`ClientError::NotConnected`].
    ///
    /// It is never cancelled (unless given a token with
    /// [`Context::with_cancellation`]), has no progress token and sends no log
    /// messages.
    pub fn new(version: ProtocolVersion) -> Self {
        Context {
            version,
            peer: None,
            cancellation: CancellationToken::new(),
            notifier: None,
            progress: None,
            log_level: None,
            auth: None,
            client_capabilities: None,
            changes: ChangeNotifier::default(),
        }
    }

    /// A context whose client requests go to `peer`.
    pub fn with_peer(version: ProtocolVersion, peer: Arc<dyn ClientPeer>) -> Self {
        Context {
            peer: Some(peer),
            ..Context::new(version)
        }
    }

    /// The context of one served request: client requests to `peer`, cancelled with
    /// `cancellation`, notifications through `notifier` (what the chain of `with_*`
    /// calls builds, without a cancellation token made only to be replaced).
    #[cfg(feature = "rmcp")]
    pub(crate) fn for_request(
        version: ProtocolVersion,
        peer: Arc<dyn ClientPeer>,
        cancellation: CancellationToken,
        notifier: Arc<dyn Notifier>,
    ) -> Self {
        Context {
            version,
            peer: Some(peer),
            cancellation,
            notifier: Some(notifier),
            progress: None,
            log_level: None,
            auth: None,
            client_capabilities: None,
            changes: ChangeNotifier::default(),
        }
    }

    /// The same context, cancelled when `token` is.
    pub fn with_cancellation(mut self, token: CancellationToken) -> Self {
        self.cancellation = token;
        self
    }

    /// The same context, announcing changes through `changes` (the served router's
    /// `Router::changes`).
    pub fn with_changes(mut self, changes: ChangeNotifier) -> Self {
        self.changes = changes;
        self
    }

    /// The handle that tells the server's sessions a resource was updated or a list
    /// changed ([`ChangeNotifier`]); a context made outside a served request has one
    /// that reaches no session.
    pub fn changes(&self) -> &ChangeNotifier {
        &self.changes
    }

    /// The same context, sending its notifications through `notifier`.
    pub fn with_notifier(mut self, notifier: Arc<dyn Notifier>) -> Self {
        self.notifier = Some(notifier);
        self
    }

    /// The same context with the client's progress token (the `progressToken` of the
    /// request's `_meta`, a string or an integer).
    pub fn with_progress_token(mut self, token: Value) -> Self {
        self.progress = Some(Arc::new(ProgressState::new(token)));
        self
    }

    /// The same context with the least severe log level the client wants; `None`
    /// turns log messages off.
    pub fn with_log_level(mut self, level: Option<LogLevel>) -> Self {
        self.log_level = level;
        self
    }

    /// The same context with the capabilities the client declared (MCP JSON: at
    /// initialization before MCP 2026-07-28, in the request's `_meta` from then on).
    /// With them known, the `Router` refuses a call of a primitive
    /// whose `clientRequirements` they do not meet before its handler runs.
    pub fn with_client_capabilities(mut self, capabilities: Value) -> Self {
        self.client_capabilities = Some(Arc::new(capabilities));
        self
    }

    /// The capabilities the client declared, when known (see
    /// [`Context::with_client_capabilities`]).
    pub fn client_capabilities(&self) -> Option<&Value> {
        self.client_capabilities.as_deref()
    }

    /// The same context with what the request authenticated; `principal` is the
    /// index (in `authentication`) of the principal [`Context::principal`] returns.
    pub fn with_authentication(
        mut self,
        authentication: Arc<Authentication>,
        principal: Option<usize>,
    ) -> Self {
        self.auth = Some((authentication, principal));
        self
    }

    /// The same context with `principal` authenticated by the scheme `scheme`, for
    /// unit tests of a handler that reads it.
    ///
    /// ```
    /// use mcpdesc::auth::Principal;
    /// use mcpdesc::{Context, ProtocolVersion};
    ///
    /// let cx = Context::new(ProtocolVersion::V2025_11_25)
    ///     .with_principal("oauth", Principal::new("ana").with_scopes(["games:write"]));
    /// assert_eq!(cx.principal().unwrap().subject(), "ana");
    /// assert!(Context::new(ProtocolVersion::V2025_11_25).principal().is_none());
    /// ```
    pub fn with_principal(self, scheme: &str, principal: Principal) -> Self {
        let mut authentication = Authentication::default();
        authentication.push(scheme, principal);
        self.with_authentication(Arc::new(authentication), Some(0))
    }

    /// Who called: the principal that satisfied the primitive's Security
    /// Requirement (the first scheme of the satisfied alternative), or for a public
    /// primitive the first principal the request authenticated. `None` for an
    /// anonymous call, and wherever security is not enforced (stdio, a router
    /// without authentication, a direct `Router` call); see
    /// `crate::auth`.
    pub fn principal(&self) -> Option<&Principal> {
        let (authentication, at) = self.auth.as_ref()?;
        authentication.entries().get((*at)?).map(|(_, p)| p)
    }

    /// Everything the request authenticated (one principal per scheme), when
    /// security is enforced.
    pub fn authentication(&self) -> Option<&Authentication> {
        self.auth.as_ref().map(|(a, _)| a.as_ref())
    }

    /// Resolves when the call is cancelled: the client sent `notifications/cancelled`
    /// for it, or the connection ended. Race it against the work:
    ///
    /// ```
    /// # async fn f(cx: mcpdesc::Context) -> Result<mcpdesc::ToolResult, mcpdesc::ToolError> {
    /// # async fn long_analysis() -> String { String::new() }
    /// tokio::select! {
    ///     report = long_analysis() => Ok(mcpdesc::ToolResult::text(report)),
    ///     () = cx.cancelled() => Err(mcpdesc::ToolError::new("cancelled")),
    /// }
    /// # }
    /// ```
    pub fn cancelled(&self) -> impl std::future::Future<Output = ()> + Send + '_ {
        self.cancellation.cancelled()
    }

    /// Whether the call is cancelled; cheap enough to check in a loop.
    pub fn is_cancelled(&self) -> bool {
        self.cancellation.is_cancelled()
    }

    /// The call's cancellation token (a clone), to hand to spawned work.
    pub fn cancellation_token(&self) -> CancellationToken {
        self.cancellation.clone()
    }

    /// The client's progress token, when it asked for progress.
    pub fn progress_token(&self) -> Option<&Value> {
        self.progress.as_ref().map(|p| &p.token)
    }

    /// The least severe log level the client wants, or `None` when
    /// [`Context::log`] sends nothing.
    pub fn log_level(&self) -> Option<LogLevel> {
        self.log_level
    }

    /// Reports progress: sends `notifications/progress` with the client's progress
    /// token, `progress` (the work done so far), `total` (when known) and a
    /// `message` (MCP 2025-03-26 and later; older versions get none).
    ///
    /// Does nothing when the client sent no `progressToken`, when `progress` is not
    /// greater than the value sent before (MCP requires it to increase) or not a
    /// finite number, or when there is no connection. A failed send is not reported:
    /// a connection that fails ends the session, and the call sees that as
    /// cancellation.
    ///
    /// ```
    /// # async fn f(cx: mcpdesc::Context, plies: &[String]) {
    /// for (done, _ply) in plies.iter().enumerate() {
    ///     // ... analyse the ply ...
    ///     cx.progress((done + 1) as f64, Some(plies.len() as f64), Some("analysing")).await;
    /// }
    /// # }
    /// ```
    pub async fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let (Some(state), Some(notifier)) = (&self.progress, &self.notifier) else {
            return;
        };
        if let Some(params) = state.params(self.version, progress, total, message) {
            let _ = notifier.notify("notifications/progress", params).await;
        }
    }

    /// Logs `data` (any JSON value; a `&str` becomes a string) at `level`: sends
    /// `notifications/message` when the client wants that level.
    ///
    /// The `McpServer` adapter sets what the client wants:
    /// - nothing unless the description declares the `logging` capability for the
    ///   session's protocol version;
    /// - before MCP 2026-07-28, the level of the session's last `logging/setLevel`
    ///   request, and every level before the client sent one (as the official
    ///   TypeScript SDK does);
    /// - from 2026-07-28 on (no `logging/setLevel` there), the level the request
    ///   names in its `_meta` (`io.modelcontextprotocol/logLevel`), and nothing when
    ///   it names none.
    ///
    /// Like [`Context::progress`], a failed send is not reported.
    ///
    /// ```
    /// # async fn f(cx: mcpdesc::Context) {
    /// use mcpdesc::LogLevel;
    /// cx.log(LogLevel::Info, "opening book loaded").await;
    /// cx.log(LogLevel::Warning, serde_json::json!({"ply": 12, "note": "time trouble"})).await;
    /// # }
    /// ```
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) {
        self.send_log(level, None, data.into()).await;
    }

    /// Like [`Context::log`], naming the `logger` that produced the message.
    pub async fn log_as(&self, level: LogLevel, logger: &str, data: impl Into<Value>) {
        self.send_log(level, Some(logger), data.into()).await;
    }

    async fn send_log(&self, level: LogLevel, logger: Option<&str>, data: Value) {
        let (Some(wanted), Some(notifier)) = (self.log_level, &self.notifier) else {
            return;
        };
        if level >= wanted {
            let params = log_params(level, logger, data);
            let _ = notifier.notify("notifications/message", params).await;
        }
    }

    /// The negotiated protocol version.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// Whether client requests can be sent.
    pub fn is_connected(&self) -> bool {
        self.peer.is_some()
    }

    /// The client of the call, for a request of `method`.
    pub(crate) fn peer(&self, method: &'static str) -> Result<&dyn ClientPeer, ClientError> {
        self.peer
            .as_deref()
            .ok_or(ClientError::NotConnected(method))
    }

    /// The same context, whose client requests are named `key`: in MCP 2026-07-28
    /// the key of the request in the input-required result's `inputRequests` (and of
    /// its answer in `inputResponses`), instead of the runtime's `input-N` (N the
    /// request's number in the call). Keys mean nothing in earlier versions, where
    /// this is the same context. A key the call already used gets the number
    /// appended (`key-N`), so that each request has its own.
    ///
    /// ```no_run
    /// # async fn f(cx: mcpdesc::Context) -> Result<(), mcpdesc::ClientError> {
    /// let name = cx
    ///     .input_key("user_name")
    ///     .elicit_form("Your name?", serde_json::json!({"type": "object", "properties": {"name": {"type": "string"}}}))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn input_key(&self, key: &str) -> Context {
        let mut cx = self.clone();
        if let Some(keyed) = self.peer.as_ref().and_then(|p| p.keyed(key)) {
            cx.peer = Some(keyed);
        }
        cx
    }
}
