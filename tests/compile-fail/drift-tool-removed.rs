// Drift: in v2 the tool `delete_note` is removed.
// The implementation of v1 must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v2-tool-removed.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
