//! Two stateful `chess-server --http ADDR --redis URL` instances sharing one real
//! Redis behind nginx round robin (`deploy/nginx-stateful.conf` as shipped, its ports
//! replaced by free ones; `balanced/mod.rs`): one session's requests are served by
//! both instances in turn, and the session goes on when an instance is killed with
//! SIGKILL in the middle of it (nginx passes the next request to the survivor, which
//! restores the session from Redis).
//!
//! Without `redis-server` or nginx the tests print a notice and pass
//! (`MCPDESC_REQUIRE_TOOLS=1`, set by `.ci/run`, fails instead).

use std::net::SocketAddr;

use hyper::StatusCode;
use serde_json::json;

#[path = "../../../tests/e2e/harness.rs"]
mod harness;
#[path = "../../../mcpdesc/tests/support/redis.rs"]
mod redis;
#[path = "../../../mcpdesc/tests/support/wire.rs"]
mod wire;

mod balanced;

use balanced::Balanced;
use harness::prereq;
use redis::Redis;
use wire::Client;

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    let program = prereq::program(test, redis::CANDIDATES, &["--version"], redis::HOW)?;
    Some(Redis::start(program))
}

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
    let Some(redis) = redis_server(test) else {
        return;
    };
    let Some(balanced) = Balanced::start_stateful(test, &redis.url) else {
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
    let Some(redis) = redis_server(test) else {
        return;
    };
    let Some(mut balanced) = Balanced::start_stateful(test, &redis.url) else {
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
