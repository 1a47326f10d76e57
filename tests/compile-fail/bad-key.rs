// An unknown key of the key-value form.

mod api {
    mcpdesc::mcpdesc!(path = "drift/v1.mcpdesc.json", colour = "red");
}

fn main() {}
