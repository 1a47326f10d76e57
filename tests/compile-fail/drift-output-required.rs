// Drift: in v2 `add_note`'s output gains the required property `created_at`.
// The implementation of v1 must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v2-output-required.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
