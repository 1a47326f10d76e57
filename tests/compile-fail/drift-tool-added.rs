// Drift: in v2 the tool `list_notes` is added, and `Notes` does not implement it.
// The implementation of v1 must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v2-tool-added.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
