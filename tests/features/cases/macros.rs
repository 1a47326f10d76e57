// The `mcpdesc!` macro through the runtime, without its `macros` feature.
mod greeter {
    mcpdesc::mcpdesc!("greeter.mcpdesc.json");
}

fn main() {}
