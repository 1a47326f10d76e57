// Drift: in v2 the form property `confirm` of the `confirm` elicitation of
// `delete_note` is renamed to `confirmed`. The handler that reads it must not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/elicitation-v2-renamed.mcpdesc.json", tests = false);
}

include!("../drift/elicitation-implementation.rs");
