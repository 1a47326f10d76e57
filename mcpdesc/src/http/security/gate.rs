//! The HTTP side of enforcement, in front of rmcp's `StreamableHttpService`:
//! Protected Resource Metadata, authentication of every request before anything
//! else, the endpoint requirement, and the per-primitive requirement read from the
//! JSON-RPC body. See the [`crate::auth`] module docs for the answers.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use bytes::Bytes;
use futures::FutureExt;
use http::header::{HeaderValue, CONTENT_TYPE, HOST, WWW_AUTHENTICATE};
use http::request::Parts;
use http::{HeaderMap, Method, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use serde_json::{json, Value};

use super::challenge::{challenges, ChallengeError};
use super::extract::take_credentials;
use super::metadata::{self, ProtectedResourceMetadata, WELL_KNOWN};
use super::peek::peek;
use crate::auth::authenticator::Authenticator;
use crate::auth::credential::{AuthRequest, Credential};
use crate::auth::declaration::{SecurityScheme, TransportChoice};
use crate::auth::principal::{AuthErrorKind, Authentication};
use crate::auth::requirement::{Requirement, Verdict};
use crate::http::reading::Reading;
use crate::protocol::version::ProtocolVersion;
use crate::server::adapter::http_marks::RequestSecurity;
use crate::server::router::Router;

type HttpBody = BoxBody<Bytes, Infallible>;

/// A refusal: the whole response (boxed: results stay small).
pub(crate) type Refusal = Box<Response<HttpBody>>;

/// Settings of the gate (from `HttpServer`).
#[derive(Debug, Clone)]
pub(crate) struct GateSettings {
    pub(crate) choice: TransportChoice,
    pub(crate) resource_url: Option<String>,
    /// Ignore the transport's declared `url`: the resource is the URL reached.
    pub(crate) served_resource: bool,
    pub(crate) authorization_servers: Option<Vec<String>>,
    /// The path of the MCP endpoint (`/mcp` unless set).
    pub(crate) path: String,
}

impl Default for GateSettings {
    fn default() -> Self {
        GateSettings {
            choice: TransportChoice::default(),
            resource_url: None,
            served_resource: false,
            authorization_servers: None,
            path: crate::http::defaults::MCP_PATH.to_owned(),
        }
    }
}

/// The gate of one HTTP server.
pub(crate) struct Gate {
    router: Arc<Router>,
    authenticator: Arc<dyn Authenticator>,
    schemes: Vec<SecurityScheme>,
    choice: TransportChoice,
    endpoint: Requirement,
    realm: String,
    resource_url: Option<String>,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    /// The listening address, when the server owns its listener: the `resource`
    /// of a request without a `Host` header.
    bound: Option<SocketAddr>,
    path: String,
    /// The versions the router speaks, in [`ProtocolVersion::ALL`] order.
    spoken: Vec<ProtocolVersion>,
}

impl Gate {
    /// The gate of `router`: `None` when it enforces nothing; an error when its
    /// description declares requirements and it has neither an authenticator nor
    /// an explicit opt-out.
    pub(crate) fn new(
        router: Arc<Router>,
        settings: GateSettings,
        bound: Option<SocketAddr>,
    ) -> Result<Option<Gate>, String> {
        if !router.enforces_security() {
            return Ok(None);
        }
        let Some(authenticator) = router.security_setup().authenticator().cloned() else {
            return Err("the description declares security requirements, but the router has no authenticator: give it one (`Router::authenticator`; generated code: `router(server)` with an `Authenticator` implementation), or opt out explicitly when a gateway in front of the server authenticates every request (`Router::without_authentication`; generated code: `router_behind_gateway`)".into());
        };
        let declaration = router
            .security_declaration()
            .ok_or("no security declaration")?;
        if let TransportChoice::Url(url) = &settings.choice {
            if !declaration
                .transports()
                .iter()
                .any(|t| t.url() == Some(url))
            {
                return Err(format!(
                    "the description declares no transport with the url `{url}`"
                ));
            }
        }
        let authorization_servers = settings
            .authorization_servers
            .unwrap_or_else(|| metadata::authorization_servers(declaration));
        let info = router.info();
        let realm = info.title.clone().unwrap_or_else(|| info.name.clone());
        let served = settings.served_resource;
        let resource_url = settings.resource_url.or_else(|| {
            if served {
                return None;
            }
            let first = ProtocolVersion::ALL
                .iter()
                .find_map(|v| declaration.http_transport(&settings.choice, *v))?;
            first.url().map(str::to_owned)
        });
        let spoken = ProtocolVersion::ALL
            .iter()
            .copied()
            .filter(|v| router.speaks(*v))
            .collect();
        Ok(Some(Gate {
            spoken,
            schemes: router.active_schemes().into_iter().cloned().collect(),
            endpoint: router.endpoint_security(&settings.choice),
            scopes: metadata::scopes_supported(&router),
            choice: settings.choice,
            authenticator,
            realm,
            resource_url,
            authorization_servers,
            bound,
            path: settings.path,
            router,
        }))
    }

    /// The server's canonical URL for this request (see the module docs).
    fn resource(&self, headers: &HeaderMap) -> String {
        if let Some(url) = &self.resource_url {
            return url.clone();
        }
        let host = headers
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| h.parse::<http::uri::Authority>().is_ok());
        let path = &self.path;
        match (host, self.bound) {
            (Some(host), _) => format!("http://{host}{path}"),
            (None, Some(bound)) => format!("http://{bound}{path}"),
            // HTTP/1.1 requires `Host`; an HTTP/1.0 client mounted in a foreign
            // server gets the loopback name.
            (None, None) => format!("http://localhost{path}"),
        }
    }

    fn metadata_url(&self, headers: &HeaderMap) -> String {
        let resource = self.resource(headers);
        metadata::metadata_url(&resource).unwrap_or_else(|| format!("{WELL_KNOWN}{}", self.path))
    }

    /// Whether `path` is one of the metadata routes.
    pub(crate) fn is_metadata_path(&self, path: &str) -> bool {
        let Some(rest) = path.strip_prefix(WELL_KNOWN) else {
            return false;
        };
        rest.is_empty()
            || rest == "/"
            || rest == self.path
            || self
                .resource_url
                .as_deref()
                .and_then(metadata::resource_path)
                .is_some_and(|p| p == rest)
    }

    /// The metadata routes of an axum router: the well-known path, with a slash,
    /// suffixed with the endpoint's path, and suffixed with the path of the
    /// configured resource URL.
    #[cfg(feature = "axum")]
    pub(crate) fn metadata_paths(&self) -> Vec<String> {
        let mut paths = vec![
            WELL_KNOWN.to_owned(),
            format!("{WELL_KNOWN}/"),
            format!("{WELL_KNOWN}{}", self.path),
        ];
        if let Some(rest) = self
            .resource_url
            .as_deref()
            .and_then(metadata::resource_path)
        {
            paths.push(format!("{WELL_KNOWN}{rest}"));
        }
        paths.sort();
        paths.dedup();
        paths
    }

    /// The metadata document (GET, HEAD), CORS-readable from any origin.
    pub(crate) fn metadata(&self, method: &Method, headers: &HeaderMap) -> Response<HttpBody> {
        let mut response = match *method {
            Method::GET | Method::HEAD => {
                let document = ProtectedResourceMetadata {
                    resource: self.resource(headers),
                    authorization_servers: self.authorization_servers.clone(),
                    scopes_supported: self.scopes.clone(),
                    resource_name: Some(self.realm.clone()),
                };
                json_response(StatusCode::OK, &document.to_json())
            }
            Method::OPTIONS => empty(StatusCode::NO_CONTENT),
            _ => {
                let mut r = empty(StatusCode::METHOD_NOT_ALLOWED);
                r.headers_mut().insert(
                    http::header::ALLOW,
                    HeaderValue::from_static("GET, HEAD, OPTIONS"),
                );
                r
            }
        };
        let headers = response.headers_mut();
        headers.insert(
            http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
        headers.insert(
            http::header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, HEAD, OPTIONS"),
        );
        response
    }

    /// Takes the request's credentials out of `parts`, verifies each, and checks
    /// the endpoint requirement: before the body is read and before rmcp sees the
    /// request.
    pub(crate) async fn authenticate(&self, parts: &mut Parts) -> Result<RequestSecurity, Refusal> {
        let presented = take_credentials(parts, &self.schemes).map_err(|why| {
            self.refused(
                StatusCode::UNAUTHORIZED,
                &self.endpoint,
                &ChallengeError::InvalidRequest(why),
                &parts.headers,
            )
        })?;
        let resource = self.resource(&parts.headers);
        let mut authentication = Authentication::default();
        let mut unavailable: Vec<String> = Vec::new();
        for credential in presented {
            let mut accepted = false;
            let mut undecided = false;
            let mut rejection = String::from("the credential is not valid");
            for scheme in &credential.schemes {
                let verified = AssertUnwindSafe(self.authenticator.authenticate(Credential::new(
                    scheme.clone(),
                    credential.secret.clone(),
                    AuthRequest::new(resource.clone()),
                )))
                .catch_unwind()
                .await;
                match verified {
                    Ok(Ok(principal)) => {
                        authentication.push(scheme.clone(), principal);
                        accepted = true;
                    }
                    Ok(Err(error)) if error.kind() == AuthErrorKind::Unavailable => {
                        // Decided later: only a requirement that needs this scheme
                        // fails for it.
                        unavailable.push(scheme.clone());
                        undecided = true;
                    }
                    Ok(Err(error)) => rejection = error.message().to_owned(),
                    Err(_) => {
                        // The message may quote the credential: not printed.
                        tracing::error!(scheme = %scheme, "mcpdesc: the authenticator panicked");
                        return Err(Box::new(json_response(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            &json!({"error": "server_error", "error_description": "the authenticator failed"}),
                        )));
                    }
                }
            }
            if !accepted && undecided {
                return Err(Box::new(unavailable_response()));
            }
            if !accepted {
                return Err(self.refused(
                    StatusCode::UNAUTHORIZED,
                    &self.endpoint,
                    &ChallengeError::InvalidToken(rejection),
                    &parts.headers,
                ));
            }
        }
        let security = RequestSecurity {
            authentication: Arc::new(authentication),
            choice: self.choice.clone(),
            unavailable,
        };
        self.check(&self.endpoint, &security, &parts.headers)?;
        Ok(security)
    }

    /// Checks the requirement of each primitive the JSON-RPC body (its `reading`) calls. Where the
    /// request's protocol version is unknown and the primitive's variants disagree,
    /// the handler adapter decides (it knows the session's version).
    pub(crate) fn authorize(
        &self,
        headers: &HeaderMap,
        reading: &Reading<'_>,
        security: &RequestSecurity,
    ) -> Result<(), Refusal> {
        let (targets, version) = peek(headers, reading);
        let named;
        let versions: &[ProtocolVersion] = match version {
            Some(v) if self.router.speaks(v) => {
                named = [v];
                &named
            }
            _ => &self.spoken,
        };
        for target in &targets {
            let mut requirements = versions
                .iter()
                .map(|v| self.router.effective_security_ref(target, *v, &self.choice));
            let Some(first) = requirements.next() else {
                continue;
            };
            if requirements.any(|r| r != first) {
                continue;
            }
            self.check(&first, security, headers)?;
        }
        Ok(())
    }

    /// Checks `requirement`; refused where a scheme it names could not decide on
    /// the credential: 503 rather than a misleading 401/403.
    fn check(
        &self,
        requirement: &Requirement,
        security: &RequestSecurity,
        headers: &HeaderMap,
    ) -> Result<(), Refusal> {
        let verdict = requirement.evaluate(&security.authentication);
        if !matches!(verdict, Verdict::Allowed { .. })
            && requirement
                .schemes()
                .iter()
                .any(|s| security.unavailable.iter().any(|u| u == s))
        {
            return Err(Box::new(unavailable_response()));
        }
        match verdict {
            Verdict::Allowed { .. } => Ok(()),
            Verdict::Unauthenticated => Err(self.refused(
                StatusCode::UNAUTHORIZED,
                requirement,
                &ChallengeError::Missing,
                headers,
            )),
            Verdict::InsufficientScope { scopes } => Err(self.refused(
                StatusCode::FORBIDDEN,
                requirement,
                &ChallengeError::InsufficientScope(scopes),
                headers,
            )),
        }
    }

    /// [`Gate::refuse`], boxed.
    fn refused(
        &self,
        status: StatusCode,
        requirement: &Requirement,
        error: &ChallengeError,
        headers: &HeaderMap,
    ) -> Refusal {
        Box::new(self.refuse(status, requirement, error, headers))
    }

    /// A 401 or 403 with a challenge per scheme of `requirement` and an OAuth-style
    /// JSON body.
    fn refuse(
        &self,
        status: StatusCode,
        requirement: &Requirement,
        error: &ChallengeError,
        headers: &HeaderMap,
    ) -> Response<HttpBody> {
        let (code, description) = match error {
            ChallengeError::Missing => (
                "unauthorized",
                format!("this request needs authentication: {requirement}"),
            ),
            ChallengeError::InvalidRequest(why) => ("invalid_request", why.clone()),
            ChallengeError::InvalidToken(why) => ("invalid_token", why.clone()),
            ChallengeError::InsufficientScope(scopes) => (
                "insufficient_scope",
                format!("this request needs the scope(s) {}", scopes.join(" ")),
            ),
        };
        let declaration = self.router.security_declaration();
        let mut response = json_response(
            status,
            &json!({"error": code, "error_description": description}),
        );
        if let Some(declaration) = declaration {
            for challenge in challenges(
                declaration,
                requirement,
                &self.realm,
                &self.metadata_url(headers),
                error,
            ) {
                if let Ok(value) = HeaderValue::from_str(&challenge) {
                    response.headers_mut().append(WWW_AUTHENTICATE, value);
                }
            }
        }
        response
    }
}

/// 503: an authenticator could not decide (the message is not sent).
fn unavailable_response() -> Response<HttpBody> {
    json_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &json!({"error": "temporarily_unavailable", "error_description": "the credential could not be checked now; try again later"}),
    )
}

fn json_response(status: StatusCode, value: &Value) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(value.to_string())).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

fn empty(status: StatusCode) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::new()).boxed());
    *response.status_mut() = status;
    response
}
