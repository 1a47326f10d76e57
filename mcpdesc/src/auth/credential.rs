//! A credential taken from a request, as an authenticator receives it. Secrets never
//! show in `Debug` output, so a credential can be logged by mistake without leaking.

use std::fmt;

/// One credential of a request, for the security scheme `scheme` of the
/// description: what `Authenticator::authenticate` verifies.
#[derive(Clone, PartialEq, Eq)]
pub struct Credential {
    scheme: String,
    secret: Secret,
    request: AuthRequest,
}

impl Credential {
    /// A credential for the scheme named `scheme`.
    pub fn new(scheme: impl Into<String>, secret: Secret, request: AuthRequest) -> Self {
        Credential {
            scheme: scheme.into(),
            secret,
            request,
        }
    }

    /// The name of the security scheme (a key of the description's `securitySchemes`).
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The secret.
    pub fn secret(&self) -> &Secret {
        &self.secret
    }

    /// About the request that carried it.
    pub fn request(&self) -> &AuthRequest {
        &self.request
    }
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credential")
            .field("scheme", &self.scheme)
            .field("secret", &self.secret)
            .field("request", &self.request)
            .finish()
    }
}

/// The secret of a [`Credential`], by the kind of its scheme.
#[derive(Clone, PartialEq, Eq)]
pub enum Secret {
    /// A bearer token (`Authorization: Bearer ...`), for `oauth2`, `openIdConnect`
    /// and `http` `bearer` schemes.
    Bearer(String),
    /// An API key, from the header, query parameter or cookie an `apiKey` scheme
    /// names.
    ApiKey(String),
    /// HTTP Basic credentials (`Authorization: Basic ...`), decoded.
    Basic(BasicCredentials),
    /// The credentials of another HTTP authentication scheme (`Authorization:
    /// <scheme> <credentials>`), as sent.
    Other {
        /// The scheme as the description names it (`digest`, ...).
        scheme: String,
        /// Everything after the scheme name.
        credentials: String,
    },
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Secret::Bearer(token) => write!(f, "Bearer(<{} bytes redacted>)", token.len()),
            Secret::ApiKey(key) => write!(f, "ApiKey(<{} bytes redacted>)", key.len()),
            Secret::Basic(basic) => write!(f, "Basic({basic:?})"),
            Secret::Other {
                scheme,
                credentials,
            } => {
                write!(f, "Other({scheme}, <{} bytes redacted>)", credentials.len())
            }
        }
    }
}

/// Decoded HTTP Basic credentials (RFC 7617).
#[derive(Clone, PartialEq, Eq)]
pub struct BasicCredentials {
    user: String,
    password: String,
}

impl BasicCredentials {
    /// Credentials from a user name and a password.
    pub fn new(user: impl Into<String>, password: impl Into<String>) -> Self {
        BasicCredentials {
            user: user.into(),
            password: password.into(),
        }
    }

    /// The user name (the text before the first `:`).
    pub fn user(&self) -> &str {
        &self.user
    }

    /// The password.
    pub fn password(&self) -> &str {
        &self.password
    }
}

impl fmt::Debug for BasicCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BasicCredentials")
            .field("user", &self.user)
            .field("password", &"<redacted>")
            .finish()
    }
}

/// What an authenticator may want to know about the request besides the secret.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuthRequest {
    resource: String,
}

impl AuthRequest {
    /// A request to the protected resource `resource`.
    pub fn new(resource: impl Into<String>) -> Self {
        AuthRequest {
            resource: resource.into(),
        }
    }

    /// The canonical URL of the MCP server as its Protected Resource Metadata names
    /// it (`resource`). An OAuth access token must have been issued for it (its
    /// audience): the MCP authorization specification forbids accepting tokens meant
    /// for other resources.
    pub fn resource(&self) -> &str {
        &self.resource
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_a_secret() {
        let request = AuthRequest::new("http://127.0.0.1/mcp");
        for secret in [
            Secret::Bearer("s3cr3t-token".into()),
            Secret::ApiKey("s3cr3t-token".into()),
            Secret::Basic(BasicCredentials::new("ana", "s3cr3t-token")),
            Secret::Other {
                scheme: "digest".into(),
                credentials: "s3cr3t-token".into(),
            },
        ] {
            let shown = format!("{:?}", Credential::new("x", secret, request.clone()));
            assert!(!shown.contains("s3cr3t"), "{shown}");
        }
    }
}
