//! `cargo run -p chess-server`: serves the chess description over MCP on stdio.

#[tokio::main]
async fn main() {
    if let Err(e) = mcpdesc::serve_stdio(chess_server::router()).await {
        eprintln!("chess-server: {e}");
        std::process::exit(1);
    }
}
