// Drift: in v2 the input property `id` of `get_note` changes from integer to string.
// The implementation of v1 must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v2-type-changed.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
