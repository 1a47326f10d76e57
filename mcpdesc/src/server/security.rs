//! The `Router`'s side of security: the declaration and authenticator it holds, the
//! effective requirement of what a request asks for, and the requirement of the
//! MCP endpoint as a whole (see the `auth` module docs for what is enforced).

use std::borrow::Cow;
use std::sync::Arc;

use super::router::Router;
use crate::auth::authenticator::Authenticator;
use crate::auth::declaration::{SecurityDeclaration, SecurityScheme, TransportChoice};
use crate::auth::policy::{AuthMode, Target};
use crate::auth::requirement::Requirement;
use crate::protocol::error::RouterError;
use crate::protocol::version::ProtocolVersion;

impl Router {
    /// Gives the router the description's security: `{"securitySchemes": ...,
    /// "security": ..., "transports": ...}` as JSON text (generated code passes
    /// `info::SECURITY`); `None` changes nothing. A declaration that does not parse,
    /// or a requirement naming an undeclared scheme, is kept in
    /// [`Router::errors`].
    ///
    /// When a requirement (root, transport or primitive) names a scheme, serving
    /// over HTTP needs [`Router::authenticator`] or an explicit
    /// [`Router::without_authentication`]; see [`crate::auth`] for what is enforced
    /// where.
    pub fn security(mut self, declaration: Option<&str>) -> Self {
        let Some(json) = declaration else {
            return self;
        };
        match SecurityDeclaration::parse(json, self.info().protocol_versions) {
            Ok(parsed) => {
                let problems: Vec<RouterError> = self
                    .all_tool_securities()
                    .chain(self.primitives().all_securities())
                    .filter_map(|(what, requirement)| {
                        parsed.check(requirement).err().map(|e| RouterError {
                            kind: "security",
                            name: what,
                            message: format!("its `security`: {e}"),
                        })
                    })
                    .collect();
                for problem in problems {
                    self.push_error(problem);
                }
                self.security_setup_mut().declaration = Some(Arc::new(parsed));
            }
            Err(message) => self.push_error(RouterError {
                kind: "security",
                name: "security".into(),
                message,
            }),
        }
        self
    }

    /// Verifies credentials with `authenticator` (generated code passes the
    /// server's `Authenticator` implementation).
    pub fn authenticator(mut self, authenticator: impl Authenticator) -> Self {
        self.security_setup_mut().mode = AuthMode::Authenticator(Arc::new(authenticator));
        self
    }

    /// Serves without checking credentials: the declared security is not enforced,
    /// no Protected Resource Metadata is served and handlers see no principal. For a
    /// server behind a gateway that authenticates and authorizes every request
    /// itself (generated code: `router_behind_gateway`), or a mock without test
    /// credentials.
    pub fn without_authentication(mut self) -> Self {
        self.security_setup_mut().mode = AuthMode::Disabled;
        self
    }

    /// The description's security, when the router was given it.
    pub fn security_declaration(&self) -> Option<&SecurityDeclaration> {
        self.security_setup().declaration()
    }

    /// Whether some Security Requirement (root, transport or primitive) names a
    /// scheme: then there is something to enforce.
    pub fn declares_requirements(&self) -> bool {
        // `active_schemes` is not empty, without building it: the handler adapter
        // asks on every request.
        let Some(declaration) = self.security_setup().declaration() else {
            return false;
        };
        self.stated_requirements(declaration).any(|requirement| {
            requirement
                .schemes()
                .iter()
                .any(|named| declaration.schemes().iter().any(|s| s.name() == *named))
        })
    }

    /// Every Security Requirement stated: the root's, the transports', the
    /// primitives'.
    fn stated_requirements<'a>(
        &'a self,
        declaration: &'a SecurityDeclaration,
    ) -> impl Iterator<Item = &'a Requirement> {
        declaration
            .root()
            .into_iter()
            .chain(declaration.transports().iter().filter_map(|t| t.security()))
            .chain(self.all_tool_requirements())
            .chain(self.primitives().all_requirements())
    }

    /// Whether credentials are checked: requirements are declared and
    /// [`Router::without_authentication`] was not called.
    pub fn enforces_security(&self) -> bool {
        self.declares_requirements() && !matches!(self.security_setup().mode, AuthMode::Disabled)
    }

    /// The schemes some requirement names, in name order: the credentials a request
    /// is searched for.
    pub fn active_schemes(&self) -> Vec<&SecurityScheme> {
        let Some(declaration) = self.security_setup().declaration() else {
            return Vec::new();
        };
        let mut named: Vec<&str> = Vec::new();
        for requirement in self.stated_requirements(declaration) {
            for scheme in requirement.schemes() {
                if !named.contains(&scheme) {
                    named.push(scheme);
                }
            }
        }
        declaration
            .schemes()
            .iter()
            .filter(|s| named.contains(&s.name()))
            .collect()
    }

    /// The requirement of `target` in `version` over HTTP: the primitive's own
    /// `security`, else the chosen transport's, else the root's, else public. An
    /// unknown primitive gets the inherited requirement (so that probing names
    /// reveals nothing to a caller who may not call anything).
    pub fn effective_security(
        &self,
        target: &Target,
        version: ProtocolVersion,
        choice: &TransportChoice,
    ) -> Requirement {
        self.effective_security_ref(target, version, choice)
            .into_owned()
    }

    /// [`Router::effective_security`], borrowed from the router where it can be
    /// (the gate and the handler adapter ask on every request).
    pub(crate) fn effective_security_ref(
        &self,
        target: &Target,
        version: ProtocolVersion,
        choice: &TransportChoice,
    ) -> Cow<'_, Requirement> {
        let Some(declaration) = self.security_setup().declaration() else {
            return Cow::Owned(Requirement::public());
        };
        match self
            .own_security(target, version)
            .or_else(|| declaration.inherited_ref(choice, version))
        {
            Some(requirement) => Cow::Borrowed(requirement),
            None => Cow::Owned(Requirement::default()),
        }
    }

    /// The primitive's own `security` in `version`, if it is known and has one
    /// (else [`Router::effective_security`] gives the inherited requirement).
    pub(crate) fn own_security(
        &self,
        target: &Target,
        version: ProtocolVersion,
    ) -> Option<&Requirement> {
        let own = match target {
            Target::Tool(name) => self.tool_security(name, version),
            Target::Prompt(name) => self.primitives().prompt_security(name, version),
            Target::Resource(uri) => self.primitives().read_security(uri, version),
            Target::Completion(target) => self.primitives().completion_security(target, version),
            Target::Endpoint => None,
        };
        own.flatten()
    }

    /// The requirement of the MCP endpoint itself, for requests that call no
    /// primitive: any requirement that lets the caller do something, that is the
    /// inherited requirement of each version or the effective requirement of any
    /// primitive of any version (OR). A caller satisfying none of them can do
    /// nothing, and is refused before anything else.
    pub fn endpoint_security(&self, choice: &TransportChoice) -> Requirement {
        let Some(declaration) = self.security_setup().declaration() else {
            return Requirement::public();
        };
        let versions = self.server_versions();
        // The inherited requirements first: their scopes are what a client asks for
        // when the first request is refused.
        let mut all = Requirement::new([]);
        let mut first = true;
        for version in versions.iter() {
            let inherited = declaration.inherited(choice, version);
            all = if first { inherited } else { all.or(&inherited) };
            first = false;
        }
        for version in versions.iter() {
            let inherited = declaration.inherited(choice, version);
            let own: Vec<Option<&Requirement>> = self
                .tool_securities(version)
                .map(|(_, r)| r)
                .chain(self.primitives().securities(version).map(|(_, r)| r))
                .collect();
            for requirement in own {
                all = all.or(requirement.unwrap_or(&inherited));
            }
        }
        all
    }
}
