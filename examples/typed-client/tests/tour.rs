//! The tour against the chess server running in this process (its router over an
//! in-memory pipe): every call answers as the chess server does.

use mcpdesc::client::Options;
use mcpdesc::rmcp::ServiceExt;
use mcpdesc::McpServer;
use typed_client::chess::Client;

#[tokio::test]
async fn the_tour_gets_an_answer_of_every_kind() {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        // `tasks::routed`: the MCP 2025-11-25 task requests on this in-memory pipe, as
        // `serve_stdio` and the HTTP server route them.
        let (read, write) = tokio::io::split(server_io);
        let running = McpServer::new(chess_server::router())
            .into_service()
            .serve(mcpdesc::tasks::routed(read, write))
            .await
            .expect("the chess server starts");
        let _ = running.waiting().await;
    });
    let (read, write) = tokio::io::split(client_io);
    let client = Client::new(Options::new().io(read, write).await.unwrap());
    let lines = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        typed_client::tour(&client),
    )
    .await
    .expect("the tour finishes within 60 s")
    .unwrap();
    assert_eq!(lines[0], "connected to `chess-server` (MCP 2025-11-25)");
    let joined = lines.join("\n");
    for expected in [
        "analyze_game: evaluation Some(",
        "analyze_game as a task: task-1 Completed, the same output as the plain call",
        "get_player_rating: ",
        "analyze_game with depth 99: refused locally at `/depth`",
        "get_opening_study: ",
        "read_rating_pools: 1 content item(s)",
        "read_opening C60: 1 content item(s)",
        "complete_opening C6: [",
    ] {
        assert!(
            joined.contains(expected),
            "{expected:?} missing in:\n{joined}"
        );
    }
}
