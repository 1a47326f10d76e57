// The description parses but is invalid: an `inputSchema` root that is not an object.

mod api {
    mcpdesc::mcpdesc!(path = "frontends/invalid.mcpdesc.json", tests = false);
}

fn main() {}
