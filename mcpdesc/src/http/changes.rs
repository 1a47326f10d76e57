//! Change notifications across instances: a router's [`ChangeNotifier`] relayed
//! through a shared [`StateStore`].
//!
//! With a shared store, an HTTP server gives its router's notifier a relay: each
//! announcement (`resources/updated`, `list_changed`) is queued, without waiting,
//! for a publisher task that hands it to the store ([`StateStore::publish_change`]);
//! a listener task reads the store's feed ([`StateStore::change_feed`]) and
//! delivers what the other instances announced to this instance's sessions. Each
//! server has a random origin id: it skips its own announcements when the store
//! hands them back (its sessions heard them already). Both tasks end with the
//! server (its shutdown token).
//!
//! The request that announces never waits for the store: a store that is slow or
//! down delays (or, past [`FEED_CAPACITY`] queued announcements, drops) what the
//! other instances hear, never the request.

use std::sync::Arc;

use tokio::sync::mpsc::error::TrySendError;
use tokio_util::sync::CancellationToken;

use crate::server::subscriptions::ChangeNotifier;
use crate::state::{ChangeAnnouncement, StateStore, FEED_CAPACITY};

/// Relays `changes` through `store`, its announcements signed `origin` (this
/// server's id), until `shutdown` (see the module docs). Does
/// nothing outside a Tokio runtime (a warning), or when the notifier has a relay
/// already.
pub(crate) fn relay(
    changes: &ChangeNotifier,
    store: Arc<dyn StateStore>,
    origin: String,
    shutdown: CancellationToken,
) {
    if tokio::runtime::Handle::try_current().is_err() {
        tracing::warn!("mcpdesc: change notifications are not relayed to other instances: the HTTP server was built outside a Tokio runtime");
        return;
    }
    let (queue, mut queued) = tokio::sync::mpsc::channel::<ChangeAnnouncement>(FEED_CAPACITY);
    let from = origin.clone();
    let relayed = changes.relay_to(Arc::new(move |method, params| {
        let announcement = ChangeAnnouncement {
            origin: from.clone(),
            method: method.to_owned(),
            params: params.clone(),
        };
        if let Err(TrySendError::Full(_)) = queue.try_send(announcement) {
            tracing::warn!("mcpdesc: a change notification was not relayed to other instances (the store is behind)");
        }
    }));
    if !relayed {
        tracing::warn!("mcpdesc: this router's change notifications are relayed by another HTTP server already");
        return;
    }
    let publisher_store = store.clone();
    let publisher_shutdown = shutdown.clone();
    tokio::spawn(async move {
        loop {
            let announcement = tokio::select! {
                announcement = queued.recv() => match announcement {
                    Some(announcement) => announcement,
                    None => return,
                },
                _ = publisher_shutdown.cancelled() => return,
            };
            if let Err(error) = publisher_store.publish_change(&announcement).await {
                tracing::warn!(%error, method = %announcement.method, "mcpdesc: a change notification did not reach the other instances");
            }
        }
    });
    let Some(mut feed) = store.change_feed() else {
        return;
    };
    let changes = changes.clone();
    tokio::spawn(async move {
        loop {
            let announcement = tokio::select! {
                announcement = feed.recv() => match announcement {
                    Some(announcement) => announcement,
                    None => return,
                },
                _ = shutdown.cancelled() => return,
            };
            if announcement.origin != origin {
                changes
                    .deliver(&announcement.method, &announcement.params)
                    .await;
            }
        }
    });
}
