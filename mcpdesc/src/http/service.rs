//! The MCP endpoint as a tower service ([`McpHttpService`]): everything one
//! endpoint does, in order: the `Origin` check and CORS, the drain, the security
//! gate, the rate limit, the body limit, the session cap, rmcp's streamable HTTP, the `tools/list`
//! write-back, and the request's `tracing` event (and, with the feature
//! `telemetry`, its metrics and span).

use std::convert::Infallible;
use std::fmt;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use http::header;
use http::{HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Body;
use rmcp::transport::streamable_http_server::session::SessionManager;
use tracing::Instrument;

use super::binding::{Admission, Binding};
use super::body::{empty, session_not_found, text, unavailable, HttpBody};
use super::drain::{Drain, Tracked};
use super::observe::{observe, Observation, Outcome};
use super::origin::{self, OriginCheck, Origins};
#[cfg(feature = "rate-limit")]
use super::rate_limit::Limiter;
use super::reading::Reading;
use super::restore::{initialize_request, restore_in_response, tools_list_request};
use super::security::gate::Gate;
use super::sessions::Sessions;
use crate::protocol::futures::BoxFuture;
use crate::server::adapter::http_marks::{SessionKeeper, Stateless};
use crate::server::adapter::listing::ToolListings;
use crate::server::adapter::shared_tasks::{SharedTaskScope, SharedTasks};
use crate::state::Owner;

/// The header naming a request's session.
const SESSION_ID: &str = "mcp-session-id";

/// rmcp's streamable HTTP service, its handler type erased.
pub(crate) type Handle =
    Box<dyn Fn(Request<Full<Bytes>>) -> BoxFuture<'static, Response<HttpBody>> + Send + Sync>;

/// The MCP endpoint as a `Clone` tower [`Service`](tower_service::Service) over
/// `http::Request<B>` for any body `B` a hyper or axum server hands over, from
/// `HttpServer::into_service`. It answers every
/// request as the MCP endpoint, whatever its path, so it can be nested anywhere
/// (`axum::Router::nest_service`, `route_service`); the Protected Resource
/// Metadata routes are not part of it (see
/// `HttpServer::into_router`, feature `axum`).
#[derive(Clone)]
pub struct McpHttpService {
    pub(crate) app: Arc<App>,
}

impl fmt::Debug for McpHttpService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpHttpService")
            .field("enforces_security", &self.app.gate.is_some())
            .finish_non_exhaustive()
    }
}

impl McpHttpService {
    /// The drain switch of this endpoint (graceful shutdown, see [`Drain`]).
    pub fn drain(&self) -> Drain {
        self.app.drain.clone()
    }

    /// How many sessions are open now (stateful mode; always 0 in stateless
    /// mode): live and dormant ones (see
    /// `HttpServer::hibernate_after`), from
    /// `initialize` until they close (`DELETE`, the handshake or idle timeout,
    /// shutdown). For metrics, and to check that sessions are dropped.
    pub async fn open_sessions(&self) -> usize {
        match &self.app.sessions {
            Some(sessions) => sessions.open().await,
            None => 0,
        }
    }

    /// How many of the open sessions are live: they hold a worker in rmcp now
    /// (the others are dormant).
    pub async fn live_sessions(&self) -> usize {
        match &self.app.sessions {
            Some(sessions) => sessions.live().await,
            None => 0,
        }
    }
}

impl<B> tower_service::Service<Request<B>> for McpHttpService
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: fmt::Display,
{
    type Response = Response<HttpBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<HttpBody>, Infallible>>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let app = self.app.clone();
        Box::pin(async move { Ok(app.handle(request).await) })
    }
}

/// What the service runs.
pub(crate) struct App {
    pub(crate) rmcp: Handle,
    pub(crate) listings: Option<ToolListings>,
    pub(crate) limit: usize,
    /// The description's security, when enforced.
    pub(crate) gate: Option<Arc<Gate>>,
    pub(crate) origins: Origins,
    /// The session bounds (stateful mode).
    pub(crate) sessions: Option<Arc<Sessions>>,
    /// The sessions' records and owners (stateful mode).
    pub(crate) binding: Option<Arc<Binding>>,
    /// The tasks, when a shared store keeps them (both modes).
    pub(crate) shared_tasks: Option<Arc<SharedTasks>>,
    pub(crate) drain: Drain,
    /// The per-client rate limit, when set.
    #[cfg(feature = "rate-limit")]
    pub(crate) rate_limit: Option<Arc<Limiter>>,
    /// Where the operations' metrics and spans go, when set.
    #[cfg(feature = "telemetry")]
    pub(crate) telemetry: Option<crate::telemetry::Telemetry>,
}

impl App {
    pub(crate) async fn handle<B>(&self, request: Request<B>) -> Response<HttpBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: fmt::Display,
    {
        let span = tracing::info_span!("mcp_request", method = tracing::field::Empty);
        let mut observation = Observation::new(request.method().clone());
        observation.session_id = header_text(request.headers(), SESSION_ID);
        // Only telemetry reads the version (its metrics' `mcp.protocol.version`).
        #[cfg(feature = "telemetry")]
        if let Some(telemetry) = &self.telemetry {
            observation.header_version = header_text(request.headers(), "mcp-protocol-version");
            observation.telemetry = Some(telemetry.clone());
        }
        async move {
            // The Origin check comes before anything else (DNS rebinding).
            let origin = match self.origins.check(request.headers()) {
                OriginCheck::Absent => None,
                OriginCheck::Allowed(origin) => Some(origin),
                OriginCheck::Refused => {
                    observation.emit(&Outcome::Refused(403));
                    return origin::forbidden();
                }
            };
            if let (Some(origin), &Method::OPTIONS) = (&origin, request.method()) {
                return origin::preflight(origin);
            }
            let mut response = self.serve(request, observation).await;
            if let Some(origin) = origin {
                origin::decorate(&mut response, &origin);
            }
            response
        }
        .instrument(span)
        .await
    }

    async fn serve<B>(
        &self,
        request: Request<B>,
        mut observation: Observation,
    ) -> Response<HttpBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: fmt::Display,
    {
        let refuse = |observation: &Observation, response: Response<HttpBody>| {
            observation.emit(&Outcome::Refused(response.status().as_u16()));
            response
        };
        // A standalone GET stream lasts as long as its session: it does not hold
        // up a drain.
        let mark = (request.method() != Method::GET).then(|| self.drain.track());
        if self.drain.is_draining() && request.method() == Method::GET {
            return refuse(&observation, unavailable("the server is shutting down", 1));
        }
        let (mut parts, body) = request.into_parts();
        // Authentication comes first: before the body is read, before rmcp looks at
        // the session.
        let security = match &self.gate {
            Some(gate) => match gate.authenticate(&mut parts).await {
                Ok(security) => {
                    observation.subject = security
                        .authentication
                        .entries()
                        .first()
                        .map(|(_, principal)| principal.subject().to_owned());
                    Some(security)
                }
                Err(refused) => return refuse(&observation, *refused),
            },
            None => None,
        };
        #[cfg(feature = "rate-limit")]
        if let Some(limiter) = &self.rate_limit {
            if let Err(refused) = limiter.check(&parts, security.as_ref()) {
                return refuse(&observation, *refused);
            }
        }
        // Who the request is: the owner it makes of a session it opens, and what is
        // checked against the owner of the session it names.
        let caller = security.as_ref().and_then(|s| Owner::of(&s.authentication));
        let body = match read_body(&parts.headers, body, self.limit).await {
            Ok(body) => body,
            Err(response) => return refuse(&observation, response),
        };
        // The one reading of the body: the probe, the gate and the task rewrite
        // share it.
        let reading = Reading::of(&body);
        if parts.method == Method::POST {
            observation.probe = reading.probe();
        }
        if let Some(name) = &observation.probe.method {
            tracing::Span::current().record("method", name.as_str());
        }
        if self.drain.is_draining()
            && observation.probe.is_request()
            && !Drain::serves_while_draining(observation.probe.method.as_deref())
        {
            return refuse(&observation, unavailable("the server is shutting down", 1));
        }
        if let (Some(gate), Some(security)) = (&self.gate, security) {
            if let Err(refused) = gate.authorize(&parts.headers, &reading, &security) {
                return refuse(&observation, *refused);
            }
            parts.extensions.insert(security);
        }
        if self.sessions.is_none() {
            parts.extensions.insert(Stateless);
        }
        // With a shared store, the handler keeps its session's log level and
        // subscriptions there (`server/adapter/kept.rs`).
        if let Some(binding) = self.binding.as_ref().filter(|b| b.shared()) {
            parts.extensions.insert(SessionKeeper {
                store: binding.store().clone(),
                ttl: binding.ttl(),
                restored: binding.restored().clone(),
            });
        }
        let session = parts
            .headers
            .get(SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        // Tasks in the shared store: who the request is, for the handler.
        if let Some(tasks) = &self.shared_tasks {
            parts.extensions.insert(SharedTaskScope {
                tasks: tasks.clone(),
                session: session.clone().filter(|_| self.sessions.is_some()),
                owner: caller.clone(),
            });
        }
        // The session's owner, and (with a shared store) its existence, before rmcp
        // sees the request (`binding`).
        let mut known = false;
        if let (Some(binding), Some(id)) = (&self.binding, &session) {
            match binding.admit(id, caller.as_ref()).await {
                Admission::Known => known = true,
                Admission::Unknown => {}
                Admission::Refused(response) => return refuse(&observation, response),
            }
        }
        let delete = parts.method == Method::DELETE && session.is_some();
        if delete && self.binding.is_some() && !known {
            return refuse(&observation, session_not_found());
        }
        let opens_session = match (&self.sessions, &session) {
            (Some(sessions), Some(id)) => {
                sessions.seen(id);
                None
            }
            (Some(sessions), None) if observation.probe.method.as_deref() == Some("initialize") => {
                if sessions.full().await {
                    return refuse(
                        &observation,
                        unavailable("too many open sessions, try again later", 30),
                    );
                }
                Some(sessions.clone())
            }
            _ => None,
        };
        let listing = match parts.method {
            Method::POST => self
                .listings
                .as_ref()
                .and_then(|_| tools_list_request(&parts.headers, &observation.probe))
                .or_else(|| initialize_request(&observation.probe)),
            _ => None,
        };
        // MCP 2025-11-25 tasks through rmcp (`tasks::wire`), after the gate saw the
        // request as the client sent it.
        let task = reading.tasks_inbound();
        // Hibernation: the session counts this request in flight until its answer
        // ends (and wakes if dormant); a request that makes it keep state pins it.
        let method = observation.probe.method.clone();
        let pins = task.is_some();
        let hold = match (&self.sessions, &session) {
            (Some(sessions), Some(id)) => sessions.hold(id, method.as_deref(), pins).await,
            _ => None,
        };
        let body = match task {
            Some(rewritten) => Bytes::from(rewritten),
            None => body,
        };
        let response = (self.rmcp)(Request::from_parts(parts, Full::new(body))).await;
        if let Some(sessions) = opens_session {
            if let Some(id) = response
                .headers()
                .get(SESSION_ID)
                .and_then(|v| v.to_str().ok())
            {
                sessions.opened(id);
                observation.session_id = Some(id.to_owned());
                #[cfg(feature = "telemetry")]
                if let Some(telemetry) = &self.telemetry {
                    telemetry.session_opened(id, observation.protocol_version());
                }
                if let Some(binding) = &self.binding {
                    if let Err(refused) = binding.opened(id, caller.as_ref()).await {
                        // A session nobody could be bound to is not handed out.
                        let _ = sessions.manager.close_session(&id.into()).await;
                        return refuse(&observation, refused);
                    }
                }
            }
        }
        // `DELETE` of one's own session: rmcp's `202` becomes `204`, and the record
        // goes.
        let response = match (delete, &self.binding, &session) {
            (true, Some(binding), Some(id)) if response.status() == StatusCode::ACCEPTED => {
                binding.deleted(id).await;
                empty(StatusCode::NO_CONTENT)
            }
            _ => response,
        };
        let response = match listing {
            Some(target) => restore_in_response(response, target, self.listings.clone()).await,
            None => response,
        };
        let response = observe(response, observation, tracing::Span::current());
        let response = match mark {
            Some(mark) => {
                let (parts, inner) = response.into_parts();
                Response::from_parts(parts, Tracked { inner, _mark: mark }.boxed())
            }
            None => response,
        };
        // A session restored from the shared state by this very request joined the
        // table during it: its answer is held from here.
        let hold = match (hold, &self.sessions, &session) {
            (None, Some(sessions), Some(id)) if known => {
                sessions.hold(id, method.as_deref(), pins).await
            }
            (hold, ..) => hold,
        };
        match hold {
            Some(hold) => hold.around(response),
            None => response,
        }
    }
}

/// A header's value as text, when it is.
fn header_text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

fn too_large(limit: usize) -> Response<HttpBody> {
    text(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("Payload Too Large: the request body exceeds the limit of {limit} bytes"),
    )
}

/// The whole request body, at most `limit` bytes.
async fn read_body<B>(
    headers: &HeaderMap,
    body: B,
    limit: usize,
) -> Result<Bytes, Response<HttpBody>>
where
    B: Body,
    B::Error: fmt::Display,
{
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large(limit));
    }
    let mut body = std::pin::pin!(body);
    let mut collected = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            text(
                StatusCode::BAD_REQUEST,
                format!("Bad Request: the request body could not be read: {e}"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            if data.remaining() > limit.saturating_sub(collected.len()) {
                return Err(too_large(limit));
            }
            collected.put(data);
        }
    }
    Ok(collected.freeze())
}
