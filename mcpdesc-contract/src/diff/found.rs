//! A change as a comparison finds it, before it is located in the files and merged
//! across protocol versions.

use serde_json::Value;

use super::change::Subject;
use super::rules::Rule;
use mcpdesc_description::pointer::Pointer;

/// A change as found, before it is located and merged across versions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    pub(crate) rule: &'static Rule,
    pub(crate) subject: Subject,
    pub(crate) name: String,
    pub(crate) path: Option<String>,
    pub(crate) old: Option<Pointer>,
    pub(crate) new: Option<Pointer>,
    pub(crate) message: String,
    pub(crate) witness: Option<Value>,
}

impl Found {
    /// A change of `subject` `name`.
    pub(crate) fn new(
        rule: &'static Rule,
        subject: Subject,
        name: impl Into<String>,
        message: impl Into<String>,
    ) -> Found {
        Found {
            rule,
            subject,
            name: name.into(),
            path: None,
            old: None,
            new: None,
            message: message.into(),
            witness: None,
        }
    }

    /// Sets the pointers into the old and new documents.
    pub(crate) fn at(mut self, old: Option<Pointer>, new: Option<Pointer>) -> Found {
        self.old = old;
        self.new = new;
        self
    }

    /// Sets the path inside the subject.
    pub(crate) fn path(mut self, path: impl Into<String>) -> Found {
        self.path = Some(path.into());
        self
    }
}
