// The pass side of `compile-fail/security-authenticator-missing.rs`: with the
// `Authenticator` of the description's schemes implemented, `router` compiles, and
// the router enforces the description's security.
#![deny(warnings)]

mod games {
    mcpdesc::mcpdesc!(path = "fixtures/generator/security.mcpdesc.json", tests = false);
}

include!("../security/handlers.rs");

use mcpdesc::auth::{AuthError, AuthRequest, BasicCredentials, Principal};

impl games::Authenticator for Games {
    async fn authenticate_api_key(&self, key: &str, _: &AuthRequest) -> Result<Principal, AuthError> {
        (key == "partner-key")
            .then(|| Principal::new("partner"))
            .ok_or_else(|| AuthError::rejected("unknown key"))
    }
    async fn authenticate_api_key_2(&self, key: &str, r: &AuthRequest) -> Result<Principal, AuthError> {
        self.authenticate_api_key(key, r).await
    }
    async fn authenticate_basic(&self, credentials: &BasicCredentials, _: &AuthRequest) -> Result<Principal, AuthError> {
        Ok(Principal::new(credentials.user()))
    }
    async fn authenticate_games_oauth(&self, token: &str, request: &AuthRequest) -> Result<Principal, AuthError> {
        // A real server verifies a JWT or introspects the token, checking that its
        // audience is `request.resource()`.
        let _audience = request.resource();
        match token {
            "reader" => Ok(Principal::new("reader").with_scopes(["games:read"])),
            _ => Err(AuthError::rejected("unknown token")),
        }
    }
    async fn authenticate_sso(&self, _token: &str, _: &AuthRequest) -> Result<Principal, AuthError> {
        Err(AuthError::unavailable("the identity provider is down"))
    }
}

fn main() {
    let router = games::router(Games);
    assert!(router.errors().is_empty(), "{:?}", router.errors());
    assert!(router.enforces_security());
    let schemes: Vec<&str> = router.active_schemes().iter().map(|s| s.name()).collect();
    assert_eq!(schemes, ["api-key", "api_key", "basic", "games-oauth", "sso"]);
    assert!(!games::router_behind_gateway(Games).enforces_security());
    assert!(!games::ExampleServer::new().router().enforces_security());
    // `Games` satisfies `Server`, and the mock does too (it rejects every credential).
    let _mock = games::router(games::ExampleServer::new());
}
