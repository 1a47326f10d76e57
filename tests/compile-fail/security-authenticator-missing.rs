// A description with security requirements: `router` needs the `Authenticator` of
// its schemes like a handler trait, so an implementation of every handler trait
// alone does not compile. `router_behind_gateway` (the explicit opt-out) does.

mod games {
    mcpdesc::mcpdesc!(path = "fixtures/generator/security.mcpdesc.json", tests = false);
}

include!("../security/handlers.rs");

fn main() {
    let _behind_gateway: mcpdesc::Router = games::router_behind_gateway(Games);
    let _router: mcpdesc::Router = games::router(Games);
}
