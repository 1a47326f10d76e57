// The macro's client side alone: the typed client exists and nothing is implemented
// (there are no handler traits), with every warning denied.
#![deny(warnings)]

mod drift {
    mcpdesc::mcpdesc!(path = "drift/v1.mcpdesc.json", side = "client");
}

fn main() {
    let _new: fn(mcpdesc::client::Session) -> drift::Client = drift::Client::new;
}
