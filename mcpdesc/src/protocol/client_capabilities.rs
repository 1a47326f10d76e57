//! Which declared client capability each server-to-client request needs. MCP forbids
//! sending a request the client did not declare the capability for, whether during a
//! call (before 2026-07-28) or inside an input-required result (2026-07-28).

use serde_json::Value;

use super::error::ClientError;

/// The capability path `elicitation/create` with these params needs: `elicitation.url`
/// for URL mode; form mode is what a bare `elicitation` capability means.
pub(crate) fn for_elicitation(params: &Value) -> &'static [&'static str] {
    if params.get("mode").and_then(Value::as_str) == Some("url") {
        &["elicitation", "url"]
    } else {
        &["elicitation"]
    }
}

/// `Ok` when `declared` (the client's capabilities as JSON, when known) contains the
/// member path `capability`; otherwise [`ClientError::Unsupported`] naming it and
/// `method`.
pub(crate) fn require(
    declared: Option<&Value>,
    method: &str,
    capability: &[&str],
) -> Result<(), ClientError> {
    let found = declared.is_some_and(|caps| {
        capability
            .iter()
            .try_fold(caps, |node, key| node.get(*key))
            .is_some()
    });
    if found {
        Ok(())
    } else {
        Err(ClientError::Unsupported(format!(
            "the client did not declare the `{}` capability that `{method}` needs",
            capability.join(".")
        )))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_capability_is_a_member_path() {
        let caps = json!({"elicitation": {"form": {}}, "roots": {}});
        assert!(require(Some(&caps), "roots/list", &["roots"]).is_ok());
        assert!(require(Some(&caps), "elicitation/create", &["elicitation"]).is_ok());
        let err = require(Some(&caps), "elicitation/create", &["elicitation", "url"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the client did not declare the `elicitation.url` capability that `elicitation/create` needs"
        );
        assert!(require(None, "roots/list", &["roots"]).is_err());
        assert_eq!(
            for_elicitation(&json!({"mode": "url"})),
            ["elicitation", "url"]
        );
        assert_eq!(for_elicitation(&json!({"message": "x"})), ["elicitation"]);
    }
}
