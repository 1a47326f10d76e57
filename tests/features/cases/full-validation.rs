// A tool schema with `pattern` served without the runtime's `full-validation` feature.
mod greeter {
    mcpdesc_macros::mcpdesc!(path = "greeter.mcpdesc.json", side = "server", tests = false, crate = ::mcpdesc);
}

fn main() {}
