// Streamable HTTP from a client built without the runtime's `client-http` feature.
async fn connect() -> Result<(), mcpdesc::client::ConnectError> {
    let session = mcpdesc::client::http("http://127.0.0.1:8080/mcp").await?;
    session.close().await;
    Ok(())
}

fn main() {
    let _ = connect;
}
