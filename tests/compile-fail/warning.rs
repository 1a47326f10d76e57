// A description the generator warns about (a tuple of open length has no Rust type, so
// it becomes `serde_json::Value`): the macro's warning is a deprecation warning on the
// path literal. Denying `deprecated` turns it into an error, so that it shows here.
#![deny(deprecated)]

mod api {
    mcpdesc::mcpdesc!(path = "frontends/warning.mcpdesc.json", tests = false);
}

fn main() {}
