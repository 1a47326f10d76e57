// The pass side of the drift cases: the implementation compiles against the version it
// was written for, with every warning denied.
#![deny(warnings)]

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v1.mcpdesc.json", tests = false);
}

include!("../drift/implementation.rs");
