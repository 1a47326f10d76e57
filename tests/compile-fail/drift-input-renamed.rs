// Drift: in v2 the required input property `title` of `add_note` is renamed to `heading`.
// The implementation of v1 must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v2-input-renamed.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
