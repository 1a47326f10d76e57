//! The greeter on stdio, served by the router mcpdesc generated.

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), mcpdesc::Error> {
    mcpdesc::serve_stdio(mcpdesc_bench_runtime::generated::router()).await
}
