//! Change announcements between the instances sharing a store: what one instance's
//! `ChangeNotifier` sent to its own sessions, handed to the others
//! (`StateStore::publish_change`, `StateStore::change_feed`) so that their
//! subscribed sessions hear it too.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One change notification, as an instance announced it: the notification itself
/// (`notifications/resources/updated` with its `uri`, or a
/// `notifications/{tools,prompts,resources}/list_changed`) and the instance that
/// announced it.
///
/// A store carries it as it is (its JSON form is what `RedisState` publishes); an
/// instance that receives its own announcement back skips it, by `origin`, since it
/// delivered it to its sessions already.
///
/// ```
/// use mcpdesc::state::ChangeAnnouncement;
/// use serde_json::json;
///
/// let announcement = ChangeAnnouncement {
///     origin: "instance-1".into(),
///     method: "notifications/resources/updated".into(),
///     params: json!({"uri": "chess://rating-pools"}),
/// };
/// let text = serde_json::to_string(&announcement).unwrap();
/// assert_eq!(ChangeAnnouncement::from_json(text.as_bytes()).unwrap(), announcement);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangeAnnouncement {
    /// The announcing instance: random, one per HTTP server.
    pub origin: String,
    /// The notification's method, e.g. `notifications/resources/updated`.
    pub method: String,
    /// The notification's params, e.g. `{"uri": "chess://rating-pools"}`.
    pub params: Value,
}

impl ChangeAnnouncement {
    /// The announcement written as `bytes` (its JSON form); `None` for anything else
    /// (another program's message on the same channel is skipped, not an error).
    pub fn from_json(bytes: &[u8]) -> Option<ChangeAnnouncement> {
        serde_json::from_slice(bytes).ok()
    }
}

/// How many announcements a feed holds for its reader before it drops new ones
/// (a reader that fell that far behind is stuck; notifications are best-effort).
pub const FEED_CAPACITY: usize = 1024;

/// The announcements a store receives from every instance (this one's included),
/// from the moment it was asked for; the store stops feeding it once it is dropped.
pub type ChangeFeed = tokio::sync::mpsc::Receiver<ChangeAnnouncement>;
