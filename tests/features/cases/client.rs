// The generated typed client without the runtime's `client` feature.
mod greeter {
    mcpdesc_macros::mcpdesc!(path = "greeter.mcpdesc.json", side = "client", crate = ::mcpdesc);
}

fn main() {
    let _ = greeter::types::GreetInput { name: "Ada".to_owned() };
}
