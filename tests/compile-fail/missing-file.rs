// The description file does not exist.

mod api {
    mcpdesc::mcpdesc!("frontends/does-not-exist.mcpdesc.json");
}

fn main() {}
