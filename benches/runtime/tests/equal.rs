//! Both greeter servers answer the same calls with the same results, so the benchmark
//! compares like with like.

use mcpdesc_bench_runtime::harness::{self, Side};

#[tokio::test(flavor = "current_thread")]
async fn both_servers_answer_alike() {
    let generated = harness::connect(Side::Generated).await;
    let handwritten = harness::connect(Side::Handwritten).await;
    let kept = harness::connect(Side::HandwrittenStored).await;
    for i in 0..4 {
        let same = serde_json::to_value(harness::call(&kept, i).await).unwrap();
        let ours = serde_json::to_value(harness::call(&generated, i).await).unwrap();
        let mut theirs = serde_json::to_value(harness::call(&handwritten, i).await).unwrap();
        // rmcp writes `"isError": false` on success; the generated router leaves it out.
        assert_eq!(theirs["isError"], false);
        assert_eq!(same, theirs, "call {i}: both hand-written forms");
        theirs.as_object_mut().unwrap().remove("isError");
        assert_eq!(ours, theirs, "call {i}");
    }
    let first = serde_json::to_value(harness::call(&generated, 0).await).unwrap();
    assert_eq!(first["structuredContent"]["greeting"], "Hello, user-0!");
    assert_eq!(first["structuredContent"]["length"], 14);
    assert_eq!(
        first["content"][0]["text"],
        r#"{"greeting":"Hello, user-0!","length":14}"#
    );
    // The same tool on both lists: name and input schema members.
    let ours = generated.list_all_tools().await.unwrap();
    let theirs = handwritten.list_all_tools().await.unwrap();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].name, theirs[0].name);
    let required = |tool: &rmcp::model::Tool| tool.input_schema.get("required").cloned();
    assert_eq!(required(&ours[0]), required(&theirs[0]));
}
