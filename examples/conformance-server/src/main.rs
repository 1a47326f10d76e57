//! `cargo run -p conformance-server -- --http ADDR`: serves the conformance description
//! over streamable HTTP at `http://ADDR/mcp` (default `127.0.0.1:3000`; port 0 picks a
//! free port) for `npx @modelcontextprotocol/conformance server --url ...`.

const USAGE: &str = "usage: conformance-server [--http ADDR]
  --http ADDR   serve streamable HTTP at http://ADDR/mcp (default 127.0.0.1:3000;
                port 0 picks a free port); loopback Host headers only";

#[tokio::main]
async fn main() {
    let mut addr = "127.0.0.1:3000".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--http", Some(value)) => addr = value,
            _ => {
                eprintln!("conformance-server: unexpected `{arg}`\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    let outcome = async {
        let server = conformance_server::http_server()
            .bind(addr.as_str())
            .await?;
        // Tests and scripts read the address from this line.
        eprintln!("conformance-server: serving MCP at {}", server.url());
        server.run().await
    };
    if let Err(e) = outcome.await {
        eprintln!("conformance-server: {e}");
        std::process::exit(1);
    }
}
