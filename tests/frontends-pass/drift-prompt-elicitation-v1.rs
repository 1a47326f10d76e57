// The pass side of `compile-fail/drift-prompt-elicitation-renamed.rs`: the prompt
// handler compiles against the description it was written for, with every warning
// denied.
#![deny(warnings)]

mod drift {
    mcpdesc::mcpdesc!(path = "drift/prompt-elicitation-v1.mcpdesc.json", tests = false);
}

include!("../drift/prompt-elicitation-implementation.rs");
