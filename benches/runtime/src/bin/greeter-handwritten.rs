//! The greeter on stdio, served by the hand-written rmcp `#[tool]` server.

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = mcpdesc_bench_runtime::handwritten::server()
        .serve(rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    Ok(())
}
