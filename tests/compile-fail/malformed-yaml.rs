// The description is not well-formed YAML (an unclosed flow mapping).

mod api {
    mcpdesc::mcpdesc!("frontends/malformed.mcpdesc.yaml");
}

fn main() {}
