//! Two stateful `chess-server --http ADDR --redis URL` instances sharing one real
//! Redis behind nginx round robin (`deploy/nginx-stateful.conf` as shipped, its ports
//! replaced by free ones; `balanced/mod.rs`): one session's requests are served by
//! both instances in turn, and the session goes on when an instance is killed with
//! SIGKILL in the middle of it (nginx passes the next request to the survivor, which
//! restores the session from Redis); a client subscribed to `chess://rating-pools`
//! hears the `notifications/resources/updated` of a `record_game_result` served by
//! either instance (Redis pub/sub between them).
//!
//! Without `redis-server` or nginx the tests print a notice and pass
//! (`MCPDESC_REQUIRE_TOOLS=1`, set by `.ci/run`, fails instead).

use std::net::SocketAddr;

use std::time::{Duration, Instant};

use hyper::StatusCode;
use serde_json::json;

#[path = "../../../tests/e2e/harness.rs"]
mod harness;
#[path = "../../../mcpdesc/tests/support/redis.rs"]
mod redis;
#[path = "../../../mcpdesc/tests/support/sse.rs"]
mod sse;
#[path = "../../../mcpdesc/tests/support/wire.rs"]
mod wire;

mod balanced;
#[allow(dead_code)] // Only its long game is used here.
mod flow;

use balanced::Balanced;
use wire::Client;

/// The client of nginx's endpoint.
fn client(balanced: &Balanced) -> Client {
    let addr: SocketAddr = balanced
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap();
    Client::new(addr)
}

/// `get_player_rating`'s example, as request `id`: its text.
async fn rating(client: &Client, id: i64) -> String {
    let reply = client
        .post(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "get_player_rating",
            "arguments": {"player_id": "fictional-player-1", "rating_type": "blitz"}}}),
        )
        .await;
    let answer = reply.answer(id);
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned()
}

const RATING: &str = "fictional-player-1 (blitz): 1500, 0 games";

#[tokio::test(flavor = "multi_thread")]
async fn one_session_served_by_both_instances_in_turn() {
    let test = "one_session_served_by_both_instances_in_turn";
    let Some(balanced) = Balanced::start_stateful(test, &[]) else {
        return;
    };
    let mut client = client(&balanced);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    for id in 1..=8 {
        assert_eq!(rating(&client, id).await, RATING, "request {id}");
    }
    // Round robin: both instances served this one session.
    balanced.assert_each_instance_served();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_goes_on_after_its_instance_is_killed() {
    let test = "a_session_goes_on_after_its_instance_is_killed";
    let Some(mut balanced) = Balanced::start_stateful(test, &[]) else {
        return;
    };
    let mut client = client(&balanced);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    assert_eq!(rating(&client, 1).await, RATING);
    assert_eq!(rating(&client, 2).await, RATING);
    // The instance that served the handshake dies mid-session (either may have; both
    // served by now).
    let first = if balanced.served(0) >= balanced.served(1) {
        0
    } else {
        1
    };
    balanced.kill(first);
    let survivor = 1 - first;
    let before = balanced.served(survivor);
    for id in 3..=6 {
        assert_eq!(rating(&client, id).await, RATING, "request {id}");
    }
    assert!(balanced.served(survivor) >= before + 4);
}

/// `record_game_result` of a drawn game (no PGN, so nothing to confirm), as request
/// `id`: its text.
async fn record(client: &Client, id: i64) -> String {
    let reply = client
        .post(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "record_game_result",
            "arguments": {"white_player_id": "fictional-player-1",
                          "black_player_id": "fictional-player-2", "result": "1/2-1/2"}}}),
        )
        .await;
    let answer = reply.answer(id);
    answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_subscriber_hears_a_game_recorded_on_the_other_instance() {
    let test = "a_subscriber_hears_a_game_recorded_on_the_other_instance";
    let Some(balanced) = Balanced::start_stateful(test, &[]) else {
        return;
    };
    // Both instances listen to the announcements before any is made (pub/sub keeps
    // nothing).
    let deadline = Instant::now() + Duration::from_secs(20);
    while balanced.redis().subscribers("mcpdesc:changes") < 2 {
        assert!(Instant::now() < deadline, "the instances did not subscribe");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut client = client(&balanced);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let subscribed = client
        .post(
            json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe",
                     "params": {"uri": "chess://rating-pools"}}),
        )
        .await;
    assert_eq!(subscribed.answer(1)["result"], json!({}));
    // The standalone stream lands on one instance; round robin sends the next two
    // calls one to each, so one of them is served by the instance without the
    // stream.
    let mut stream = sse::Stream::open(&client).await;
    let before = [balanced.served(0), balanced.served(1)];
    for id in [2, 3] {
        assert!(record(&client, id).await.starts_with("Recorded 1/2-1/2"));
    }
    // (Each instance logs its requests on stderr, read as it comes.)
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(balanced.served(0) > before[0] && balanced.served(1) > before[1]) {
        assert!(
            Instant::now() < deadline,
            "round robin: both instances served a recorded game"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let updated = "notifications/resources/updated";
    for game in 1..=2 {
        let heard = stream
            .next(updated, Duration::from_secs(5))
            .await
            .unwrap_or_else(|| panic!("the update of game {game} was not heard"));
        assert_eq!(heard["params"], json!({"uri": "chess://rating-pools"}));
    }
    // Each once: the instance with the stream does not deliver its own twice.
    assert!(stream
        .next(updated, Duration::from_millis(700))
        .await
        .is_none());
}

/// A task created through nginx runs on one instance (`analyze_game` at 200 ms per
/// ply: eight seconds); that instance is killed with SIGKILL mid-analysis. Polled
/// through nginx (now the survivor), the task is never unknown, and ends `failed`
/// ("the instance running this task stopped") once its lease has run out.
#[tokio::test(flavor = "multi_thread")]
async fn a_task_whose_instance_is_killed_ends_failed_on_the_other() {
    let test = "a_task_whose_instance_is_killed_ends_failed_on_the_other";
    let Some(mut balanced) = Balanced::start_stateful(test, &["--think-ms", "200"]) else {
        return;
    };
    let mut client = client(&balanced);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let before = [balanced.served(0), balanced.served(1)];
    let created = client
        .post(
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "analyze_game", "arguments": {"pgn": flow::LONG_GAME},
            "task": {"ttl": 60000}}}),
        )
        .await
        .answer(1);
    let task_id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("a task: {created}"))
        .to_owned();
    // The instance that logged the call runs its handler.
    let deadline = Instant::now() + Duration::from_secs(10);
    let runner = loop {
        if let Some(index) = (0..2).find(|&i| balanced.served(i) > before[i]) {
            break index;
        }
        assert!(Instant::now() < deadline, "no instance logged the call");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    balanced.kill(runner);
    let deadline = Instant::now() + Duration::from_secs(40);
    for id in 2.. {
        let status = client
            .post(json!({"jsonrpc": "2.0", "id": id, "method": "tasks/get",
                         "params": {"taskId": task_id}}))
            .await
            .answer(id);
        let result = &status["result"];
        assert!(result["status"].is_string(), "never unknown: {status}");
        if result["status"] == "failed" {
            let message = result["statusMessage"].as_str().unwrap_or_default();
            assert!(message.contains("stopped"), "{status}");
            return;
        }
        assert_eq!(result["status"], "working", "{status}");
        assert!(Instant::now() < deadline, "still working: {status}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}
