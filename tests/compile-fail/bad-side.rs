// A side that is not server, client or both.

mod api {
    mcpdesc::mcpdesc!(path = "drift/v1.mcpdesc.json", side = "peer");
}

fn main() {}
