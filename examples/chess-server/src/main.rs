//! `cargo run -p chess-server`: serves the chess description over MCP on stdio, or
//! over streamable HTTP at `http://ADDR/mcp` with `--http ADDR`.

use std::time::Duration;

const USAGE: &str = "usage: chess-server [--http ADDR] [--think-ms N]
  (no option)   serve MCP on stdin/stdout
  --http ADDR   serve streamable HTTP at http://ADDR/mcp (ADDR such as 127.0.0.1:8080;
                port 0 picks a free port); loopback Host headers only
  --think-ms N  spend N ms on each ply analyze_game analyses (a stand-in for an
                engine's thinking time, to watch progress and cancellation)";

/// The command line.
struct Options {
    http: Option<String>,
    think_time: Duration,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        http: None,
        think_time: Duration::ZERO,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--http" => options.http = Some(args.next().ok_or("--http needs an address")?),
            "--think-ms" => {
                let value = args.next().ok_or("--think-ms needs a number")?;
                let ms: u64 = value.parse().map_err(|_| {
                    format!("--think-ms: `{value}` is not a number of milliseconds")
                })?;
                options.think_time = Duration::from_millis(ms);
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(options)
}

#[tokio::main]
async fn main() {
    let options = match parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(problem) => {
            if !problem.is_empty() {
                eprintln!("chess-server: {problem}");
            }
            eprintln!("{USAGE}");
            std::process::exit(if problem.is_empty() { 0 } else { 2 });
        }
    };
    let router = chess_server::router_thinking(options.think_time);
    let outcome = match options.http {
        Some(addr) => serve_http(router, &addr).await,
        None => mcpdesc::serve_stdio(router).await,
    };
    if let Err(e) = outcome {
        eprintln!("chess-server: {e}");
        std::process::exit(1);
    }
}

async fn serve_http(router: mcpdesc::Router, addr: &str) -> Result<(), mcpdesc::Error> {
    let server = mcpdesc::http::HttpServer::new(router).bind(addr).await?;
    // Tests and scripts read the address from this line (port 0 picks one).
    eprintln!("chess-server: serving MCP at {}", server.url());
    server.run().await
}
