//! Change announcements on Redis pub/sub (feature `redis`): the feed
//! `RedisState::change_feed` hands an HTTP server.
//!
//! One dedicated pub/sub connection per feed, subscribed to the channel
//! `{prefix}changes`. The connection is checked with a `PING` every
//! [`PING_EVERY`] (bounded by the store's timeout): a connection that closed, or
//! a server that stopped answering, is dropped and a new one subscribes, after a
//! delay that doubles from [`MIN_BACKOFF`] up to [`MAX_BACKOFF`] while Redis
//! stays away. Pub/sub does not keep messages: what is published while an
//! instance is not subscribed (Redis down, reconnecting) does not reach it.

use std::time::Duration;

use futures::StreamExt;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::mpsc::Sender;

use super::changes::{ChangeAnnouncement, ChangeFeed, FEED_CAPACITY};

/// How often the pub/sub connection is checked.
pub(super) const PING_EVERY: Duration = Duration::from_secs(5);

/// The first delay before subscribing again after the connection was lost.
pub(super) const MIN_BACKOFF: Duration = Duration::from_millis(100);

/// The longest delay between two attempts to subscribe.
pub(super) const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// A feed of the announcements published on `channel`, kept going (see the module
/// docs) until the receiver is dropped. Must be called inside a Tokio runtime.
pub(super) fn spawn_feed(client: redis::Client, channel: String, timeout: Duration) -> ChangeFeed {
    let (sender, receiver) = tokio::sync::mpsc::channel(FEED_CAPACITY);
    tokio::spawn(async move {
        let mut backoff = MIN_BACKOFF;
        loop {
            match listen(&client, &channel, timeout, &sender, &mut backoff).await {
                Ended::ReaderGone => return,
                Ended::Lost(error) => {
                    tracing::warn!(%error, "mcpdesc: change announcements from other instances paused; subscribing again");
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(backoff) => {}
                _ = sender.closed() => return,
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    });
    receiver
}

/// Why [`listen`] returned.
enum Ended {
    /// The feed's receiver was dropped: the task ends.
    ReaderGone,
    /// The connection was lost or never made.
    Lost(String),
}

/// Subscribes on a fresh connection and forwards what comes until it is lost;
/// `backoff` goes back to its minimum once subscribed.
async fn listen(
    client: &redis::Client,
    channel: &str,
    timeout: Duration,
    sender: &Sender<ChangeAnnouncement>,
    backoff: &mut Duration,
) -> Ended {
    let connecting = tokio::time::timeout(timeout, client.get_async_pubsub()).await;
    let pubsub = match bounded("connecting", timeout, connecting) {
        Ok(pubsub) => pubsub,
        Err(ended) => return ended,
    };
    let (mut sink, mut stream) = pubsub.split();
    let subscribing = tokio::time::timeout(timeout, sink.subscribe(channel)).await;
    if let Err(ended) = bounded("subscribing", timeout, subscribing) {
        return ended;
    }
    *backoff = MIN_BACKOFF;
    let mut ticks = tokio::time::interval(PING_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // The first tick is now: the subscription was just confirmed.
    ticks.tick().await;
    loop {
        tokio::select! {
            message = stream.next() => {
                let Some(message) = message else {
                    return Ended::Lost("the connection closed".to_owned());
                };
                // Another program's message on the channel is skipped.
                let Some(announcement) = ChangeAnnouncement::from_json(message.get_payload_bytes()) else {
                    continue;
                };
                match sender.try_send(announcement) {
                    Ok(()) => {}
                    Err(TrySendError::Full(_)) => {
                        tracing::warn!("mcpdesc: a change announcement from another instance was dropped (the reader is behind)");
                    }
                    Err(TrySendError::Closed(_)) => return Ended::ReaderGone,
                }
            }
            _ = ticks.tick() => {
                let ping = tokio::time::timeout(timeout, sink.ping::<redis::Value>()).await;
                if let Err(ended) = bounded("checking the connection", timeout, ping) {
                    return ended;
                }
            }
            _ = sender.closed() => return Ended::ReaderGone,
        }
    }
}

/// The outcome of one bounded operation.
fn bounded<T>(
    what: &str,
    timeout: Duration,
    result: Result<redis::RedisResult<T>, tokio::time::error::Elapsed>,
) -> Result<T, Ended> {
    match result {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(Ended::Lost(format!("{what}: {error}"))),
        Err(_) => Err(Ended::Lost(format!(
            "{what}: no answer within {} ms",
            timeout.as_millis()
        ))),
    }
}
