// The pass side of `compile-fail/drift-elicitation-renamed.rs`: the implementation
// compiles against the description it was written for, with every warning denied.
#![deny(warnings)]

mod drift {
    mcpdesc::mcpdesc!(path = "drift/elicitation-v1.mcpdesc.json", tests = false);
}

include!("../drift/elicitation-implementation.rs");
