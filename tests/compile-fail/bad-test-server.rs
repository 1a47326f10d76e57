// A test server that is not a Rust expression: an error on the literal, at compile time.

mod api {
    mcpdesc::mcpdesc!(path = "drift/v1.mcpdesc.json", test_server = "crate::Server::new(");
}

fn main() {}
