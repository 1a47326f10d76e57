// Drift: in v2 the form property `side` of the `choose_side` elicitation of the
// `review_game` prompt is renamed to `colour`. The prompt handler that reads it must
// not compile.

mod drift {
    mcpdesc::mcpdesc!(path = "drift/prompt-elicitation-v2-renamed.mcpdesc.json", tests = false);
}

include!("../drift/prompt-elicitation-implementation.rs");
