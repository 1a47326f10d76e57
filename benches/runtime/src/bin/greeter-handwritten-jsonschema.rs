//! The hand-written greeter on stdio, plus the tool's input schema compiled with
//! `jsonschema` as the generated router compiles it: the size and memory floor of any
//! server that checks its arguments with `jsonschema` (the benchmark's third row).

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "excited": {"type": "boolean"}},
        "required": ["name"]
    });
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .build(&schema)?;
    std::hint::black_box(&validator);
    let running = mcpdesc_bench_runtime::handwritten::server()
        .serve(rmcp::transport::stdio())
        .await?;
    running.waiting().await?;
    drop(validator);
    Ok(())
}
