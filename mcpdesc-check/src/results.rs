//! The rules a result must keep (failures when broken), and the comparison of a result
//! with an example's (differences are warnings: examples are illustrative).

use mcpdesc::implementation::{first_difference, Compare};
use mcpdesc::testing::canonical;
use mcpdesc::{Content, ProtocolVersion};
use serde_json::Value;

/// A broken result rule: the finding kind and what is wrong.
pub type Problem = (&'static str, String);

/// The problems of a `tools/call` result of a tool declared as `declaration` in
/// `version`: `content` not an array of MCP content blocks of the version, `isError`
/// not a boolean, and for a successful call of a tool with `outputSchema` (2025-06-18
/// and later) `structuredContent` missing or not valid against it.
pub fn tool_result(
    result: &Value,
    declaration: Option<&Value>,
    version: ProtocolVersion,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    if !result.is_object() {
        problems.push((
            "result-malformed",
            format!("the result is not an object: {result}"),
        ));
        return problems;
    }
    problems.extend(content_blocks(result.get("content"), "content", version));
    let is_error = match result.get("isError") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            problems.push((
                "result-malformed",
                format!("`isError` is not a boolean: {other}"),
            ));
            false
        }
    };
    let output_schema = declaration.and_then(|d| d.get("outputSchema"));
    if let (false, Some(schema), true) = (is_error, output_schema, version.has_structured_content())
    {
        match result.get("structuredContent") {
            None => problems.push((
                "structured-content-missing",
                "a successful result of a tool with `outputSchema` has no `structuredContent`"
                    .to_owned(),
            )),
            Some(structured) => {
                if let Err(e) = mcpdesc::testing::validate_if_compilable(
                    schema,
                    structured,
                    "`structuredContent`",
                    "/structuredContent",
                ) {
                    problems.push((
                        "structured-content-invalid",
                        format!("not valid against the `outputSchema`: {e}"),
                    ));
                }
            }
        }
    }
    problems
}

/// The problems of a `prompts/get` result: `messages` an array of `{role, content}`
/// with a role of `user` or `assistant` and one MCP content block each.
pub fn prompt_result(result: &Value, version: ProtocolVersion) -> Vec<Problem> {
    let Some(messages) = result.get("messages").and_then(Value::as_array) else {
        return vec![(
            "result-malformed",
            "the result has no `messages` array".to_owned(),
        )];
    };
    let mut problems = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        match message.get("role").and_then(Value::as_str) {
            Some("user" | "assistant") => {}
            other => problems.push((
                "result-malformed",
                format!(
                    "/messages/{i}/role is {} (expected `user` or `assistant`)",
                    other.map_or("missing".to_owned(), |r| format!("`{r}`"))
                ),
            )),
        }
        problems.extend(content_block(
            message.get("content"),
            &format!("messages/{i}/content"),
            version,
        ));
    }
    problems
}

/// The problems of a `resources/read` result: `contents` an array of entries with a
/// string `uri` and a string `text` or `blob`.
pub fn resource_result(result: &Value) -> Vec<Problem> {
    let Some(contents) = result.get("contents").and_then(Value::as_array) else {
        return vec![(
            "result-malformed",
            "the result has no `contents` array".to_owned(),
        )];
    };
    let mut problems = Vec::new();
    for (i, entry) in contents.iter().enumerate() {
        let text = |k: &str| entry.get(k).is_some_and(Value::is_string);
        if !text("uri") || !(text("text") || text("blob")) {
            problems.push((
                "result-malformed",
                format!("/contents/{i} is not resource contents (a string `uri` and a string `text` or `blob`): {entry}"),
            ));
        }
    }
    problems
}

fn content_blocks(blocks: Option<&Value>, at: &str, version: ProtocolVersion) -> Vec<Problem> {
    match blocks {
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .flat_map(|(i, b)| content_block(Some(b), &format!("{at}/{i}"), version))
            .collect(),
        None => vec![(
            "result-malformed",
            format!("the result has no `{at}` array"),
        )],
        Some(other) => vec![(
            "result-malformed",
            format!("`{at}` is not an array: {other}"),
        )],
    }
}

fn content_block(block: Option<&Value>, at: &str, version: ProtocolVersion) -> Vec<Problem> {
    let Some(block) = block else {
        return vec![("result-malformed", format!("/{at} is missing"))];
    };
    match serde_json::from_value::<Content>(block.clone()) {
        Err(e) => vec![(
            "result-malformed",
            format!("/{at} is not an MCP content block ({e}): {block}"),
        )],
        Ok(content) => content
            .version_problems(version)
            .into_iter()
            .map(|p| ("result-malformed", format!("/{at}: {p}")))
            .collect(),
    }
}

/// The differences between a tool result and an example's: `isError`,
/// `structuredContent` (when the version has it and the example shows it) and the
/// content blocks. Text blocks that both hold JSON are compared as JSON (a server
/// may serialize members in another order); everything else as JSON values, key
/// order aside.
pub fn tool_differences(expected: &Value, actual: &Value, version: ProtocolVersion) -> Vec<String> {
    let mut diffs = Vec::new();
    let err = |v: &Value| v.get("isError").and_then(Value::as_bool).unwrap_or(false);
    if err(expected) != err(actual) {
        diffs.push(format!(
            "isError: expected {}, got {}",
            err(expected),
            err(actual)
        ));
    }
    if version.has_structured_content() {
        if let Some(want) = expected.get("structuredContent") {
            let got = actual.get("structuredContent");
            if got.map(canonical) != Some(canonical(want)) {
                diffs.push(format!(
                    "structuredContent: expected {want}, got {}",
                    got.map_or("(absent)".to_owned(), Value::to_string)
                ));
            }
        }
    }
    diffs.extend(list_differences(
        expected.get("content"),
        actual.get("content"),
        "content",
        &block_key,
    ));
    diffs
}

/// The differences between a prompt result and an example's `messages`.
pub fn prompt_differences(expected: &Value, actual: &Value) -> Vec<String> {
    let key = |m: &Value| {
        let mut m = canonical(m);
        if let Some(content) = m.get_mut("content") {
            *content = block_key(content);
        }
        m
    };
    list_differences(
        expected.get("messages"),
        actual.get("messages"),
        "messages",
        &key,
    )
}

/// The differences between a `resources/read` result and an example's: its cache
/// hints ([`cache_hint_differences`]) and its `contents`.
pub fn resource_differences(expected: &Value, actual: &Value) -> Vec<String> {
    let mut diffs = cache_hint_differences(expected, actual, true);
    diffs.extend(list_differences(
        expected.get("contents"),
        actual.get("contents"),
        "contents",
        &|e: &Value| {
            let mut e = canonical(e);
            if let Some(text) = e.get("text").and_then(Value::as_str).and_then(json_text) {
                e["text"] = text;
            }
            e
        },
    ));
    diffs
}

/// The 2026-07-28 cache hints of a `resources/read` result that differ from the
/// example's: `ttlMs` and `cacheScope` (which `validate` requires in a completed read
/// example of that version), each compared when the example states it; by value, or
/// with `exact` false (a shape comparison) by presence only.
pub fn cache_hint_differences(expected: &Value, actual: &Value, exact: bool) -> Vec<String> {
    let mut diffs = Vec::new();
    for key in ["ttlMs", "cacheScope"] {
        let Some(want) = expected.get(key) else {
            continue;
        };
        match actual.get(key) {
            None => diffs.push(format!("{key}: expected {want}, got (absent)")),
            Some(got) if exact && got != want => {
                diffs.push(format!("{key}: expected {want}, got {got}"))
            }
            Some(_) => {}
        }
    }
    diffs
}

/// The differences between the shapes of two results of `method`, for an example that
/// states `"x-mcpdesc-compare": "shape"` (its text is illustrative: a clock, a
/// generated id), as the generated tests compare them
/// ([`mcpdesc::implementation::Compare::shape`]): a tool's `isError`, content kinds and
/// whether there is `structuredContent`; a prompt's roles and content kinds; a read's
/// URIs, MIME types, text or blob, and whether the cache hints are there; the number of
/// completion values. A tool's `structuredContent` is still checked against its
/// `outputSchema` by the result rules.
pub fn shape_differences(method: &str, expected: &Value, actual: &Value) -> Vec<String> {
    let (Some(want), Some(got)) = (
        Compare::shape(method, expected),
        Compare::shape(method, actual),
    ) else {
        return Vec::new();
    };
    let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".to_owned(), Value::to_string);
    let mut diffs: Vec<String> = first_difference(&want, &got)
        .map(|d| {
            format!(
                "the shape (x-mcpdesc-compare: shape) differs at {}: expected {}, got {}",
                if d.pointer.is_empty() {
                    "/"
                } else {
                    &d.pointer
                },
                show(&d.expected),
                show(&d.actual)
            )
        })
        .into_iter()
        .collect();
    if method == "resources/read" {
        diffs.extend(cache_hint_differences(expected, actual, false));
    }
    diffs
}

/// The differences between a `completion/complete` result and an example's
/// `completion` (`values`, `total`, `hasMore`).
pub fn completion_differences(expected: &Value, actual: &Value) -> Vec<String> {
    match expected.get("completion") {
        Some(want) if actual.get("completion").map(canonical) != Some(canonical(want)) => {
            vec![format!(
                "completion: expected {want}, got {}",
                actual.get("completion").unwrap_or(&Value::Null)
            )]
        }
        _ => Vec::new(),
    }
}

fn list_differences(
    expected: Option<&Value>,
    actual: Option<&Value>,
    member: &str,
    key: &dyn Fn(&Value) -> Value,
) -> Vec<String> {
    let Some(Value::Array(want)) = expected else {
        return Vec::new();
    };
    let empty = Vec::new();
    let got = actual.and_then(Value::as_array).unwrap_or(&empty);
    if want.len() != got.len() {
        return vec![format!(
            "{member}: expected {} entries, got {}: {}",
            want.len(),
            got.len(),
            Value::Array(got.clone())
        )];
    }
    want.iter()
        .zip(got)
        .enumerate()
        .filter(|(_, (w, g))| key(w) != key(g))
        .map(|(i, (w, g))| format!("/{member}/{i}: expected {w}, got {g}"))
        .collect()
}

/// A content block in comparable form: canonical JSON, a text that holds JSON
/// replaced by that JSON, annotations and `_meta` aside (servers add them freely).
fn block_key(block: &Value) -> Value {
    let mut block = canonical(block);
    if let Some(map) = block.as_object_mut() {
        map.remove("annotations");
        map.remove("_meta");
        if let Some(json) = map.get("text").and_then(Value::as_str).and_then(json_text) {
            map.insert("text".into(), json);
        }
    }
    block
}

/// The JSON a text holds, when it is a JSON object or array.
fn json_text(text: &str) -> Option<Value> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(text)
        .ok()
        .map(|v| canonical(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use ProtocolVersion::*;

    #[test]
    fn tool_result_rules() {
        let decl = json!({"outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}});
        let ok = json!({"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": 1}});
        assert!(tool_result(&ok, Some(&decl), V2025_11_25).is_empty());
        let missing = json!({"content": []});
        assert_eq!(
            tool_result(&missing, Some(&decl), V2025_11_25)[0].0,
            "structured-content-missing"
        );
        // Before 2025-06-18 there is no structuredContent to ask for.
        assert!(tool_result(&missing, Some(&decl), V2025_03_26).is_empty());
        let wrong = json!({"content": [], "structuredContent": {"n": "one"}});
        let problems = tool_result(&wrong, Some(&decl), V2025_11_25);
        assert_eq!(problems[0].0, "structured-content-invalid");
        assert!(
            problems[0].1.contains("/structuredContent/n"),
            "{problems:?}"
        );
        let error = json!({"content": [{"type": "text", "text": "no"}], "isError": true});
        assert!(tool_result(&error, Some(&decl), V2025_11_25).is_empty());
        let garbage = json!({"content": [{"type": "picture"}], "isError": "yes"});
        let kinds: Vec<&str> = tool_result(&garbage, None, V2025_11_25)
            .iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(kinds, ["result-malformed", "result-malformed"]);
    }

    #[test]
    fn differences() {
        let want = json!({"content": [{"type": "text", "text": "{\"a\":1,\"b\":2}"}], "structuredContent": {"a": 1, "b": 2}});
        let same = json!({"content": [{"type": "text", "text": "{\"b\": 2, \"a\": 1.0}"}], "structuredContent": {"b": 2, "a": 1}});
        assert!(tool_differences(&want, &same, V2025_11_25).is_empty());
        let other = json!({"content": [{"type": "text", "text": "hi"}], "isError": true});
        let diffs = tool_differences(&want, &other, V2025_11_25);
        assert_eq!(diffs.len(), 3, "{diffs:?}");
        assert!(diffs[0].starts_with("isError"));
        let r = json!({"contents": [{"uri": "x:/a", "text": "{\"k\":1}"}]});
        assert!(resource_differences(
            &r,
            &json!({"contents": [{"uri": "x:/a", "text": "{ \"k\": 1 }"}]})
        )
        .is_empty());
        assert_eq!(resource_differences(&r, &json!({"contents": []})).len(), 1);
        assert_eq!(
            resource_result(&json!({"contents": [{"uri": "x"}]})).len(),
            1
        );
        assert_eq!(
            prompt_result(
                &json!({"messages": [{"role": "system", "content": {"type": "text", "text": ""}}]}),
                V2025_11_25
            )
            .len(),
            1
        );
    }
}
