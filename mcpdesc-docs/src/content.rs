//! Example payloads: tool results, prompt messages, resource contents and completion
//! results, each content block by its kind.
//!
//! Text is text (a text that parses as a JSON object or array is pretty-printed),
//! structured content is pretty JSON, and an image becomes an `<img>` only when the
//! description embeds it (base64 `data` of a raster type) as a `data:` URI: nothing is
//! ever fetched, and URIs (resource links, embedded resources) are shown as text, never
//! as links, so no `javascript:` or remote URL becomes clickable.

use serde_json::Value;

use crate::html::{json, text};

/// Image types shown inline (SVG is not: it is a document, not a picture).
const RASTER: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Text as a `<pre>`: pretty JSON when it is a JSON object or array, else as written.
pub(crate) fn text_block(s: &str) -> String {
    match serde_json::from_str::<Value>(s) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => {
            format!("<pre class=\"json\" title=\"JSON text\">{}</pre>", json(&v))
        }
        _ => format!("<pre class=\"text\">{}</pre>", text(s)),
    }
}

/// A JSON value as a `<pre>`.
pub(crate) fn json_block(v: &Value) -> String {
    format!("<pre class=\"json\">{}</pre>", json(v))
}

/// A labelled part of a payload.
fn labelled(label: &str, body: &str) -> String {
    format!("<div class=\"part\"><span class=\"label\">{label}</span>{body}</div>")
}

/// One content block (tool result content, prompt message content, sampling content).
pub(crate) fn block(b: &Value) -> String {
    let kind = b.get("type").and_then(Value::as_str).unwrap_or("");
    let s = |k: &str| b.get(k).and_then(Value::as_str);
    match kind {
        "text" => labelled("text", &text_block(s("text").unwrap_or_default())),
        "image" => labelled("image", &image(s("data"), s("mimeType"))),
        "audio" => labelled(
            "audio",
            &format!(
                "<p>{}, {} base64 characters (not played)</p>",
                text(s("mimeType").unwrap_or("audio")),
                s("data").map_or(0, str::len)
            ),
        ),
        "resource_link" => labelled("resource link", &resource_contents(b)),
        "resource" => labelled(
            "embedded resource",
            &b.get("resource").map(resource_contents).unwrap_or_default(),
        ),
        _ => labelled(&text(kind), &json_block(b)),
    }
}

/// An embedded image as a `data:` URI, or a note when it is not a raster image with
/// base64 data.
fn image(data: Option<&str>, mime: Option<&str>) -> String {
    let mime = mime.unwrap_or_default();
    match data {
        Some(data)
            if RASTER.contains(&mime)
                && !data.is_empty()
                && data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')) =>
        {
            format!("<img class=\"embedded\" alt=\"embedded {mime} image\" src=\"data:{mime};base64,{data}\">")
        }
        _ => format!(
            "<p>{} image, {} base64 characters (not shown)</p>",
            text(mime),
            data.map_or(0, str::len)
        ),
    }
}

/// A resource's contents or a resource link: its URI and MIME type as text, then its
/// text (pretty when JSON) or the size of its blob.
pub(crate) fn resource_contents(r: &Value) -> String {
    let s = |k: &str| r.get(k).and_then(Value::as_str);
    let mut out = String::from("<p class=\"uri\">");
    if let Some(uri) = s("uri") {
        out.push_str(&format!("<code>{}</code>", text(uri)));
    }
    if let Some(name) = s("name") {
        out.push_str(&format!(" <span class=\"muted\">{}</span>", text(name)));
    }
    if let Some(mime) = s("mimeType") {
        out.push_str(&format!(" <span class=\"mime\">{}</span>", text(mime)));
    }
    out.push_str("</p>");
    if let Some(d) = s("description") {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    if let Some(t) = s("text") {
        out.push_str(&text_block(t));
    } else if let Some(blob) = s("blob") {
        out.push_str(&format!(
            "<p>binary, {} base64 characters (not shown)</p>",
            blob.len()
        ));
    }
    out
}

/// A completed Tool Result: `isError`, each content block, the structured content,
/// and any other member as JSON.
pub(crate) fn tool_result(result: &Value) -> String {
    let mut out = String::new();
    if result.get("isError") == Some(&Value::Bool(true)) {
        out.push_str("<p><span class=\"badge danger\">error result</span></p>");
    }
    for b in result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push_str(&block(b));
    }
    if let Some(sc) = result.get("structuredContent") {
        out.push_str(&labelled("structured content", &json_block(sc)));
    }
    out.push_str(&rest(result, &["content", "structuredContent", "isError"]));
    out
}

/// The members of an object other than `known`, as one JSON block (nothing when none).
pub(crate) fn rest(value: &Value, known: &[&str]) -> String {
    let Some(obj) = value.as_object() else {
        return json_block(value);
    };
    let others: serde_json::Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if others.is_empty() {
        String::new()
    } else {
        labelled("other members", &json_block(&Value::Object(others)))
    }
}

/// A prompt's `prompts/get` result: its description, then each message with its role.
pub(crate) fn prompt_result(result: &Value) -> String {
    let mut out = String::new();
    if let Some(d) = result.get("description").and_then(Value::as_str) {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    out.push_str("<ol class=\"messages\">");
    for m in result
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("?");
        out.push_str(&format!("<li><span class=\"role\">{}</span>", text(role)));
        if let Some(c) = m.get("content") {
            out.push_str(&block(c));
        }
        out.push_str("</li>");
    }
    out.push_str("</ol>");
    out.push_str(&rest(result, &["description", "messages"]));
    out
}

/// A `resources/read` result: each of its contents.
pub(crate) fn read_result(result: &Value) -> String {
    let mut out = String::new();
    for c in result
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push_str(&labelled("contents", &resource_contents(c)));
    }
    out.push_str(&rest(result, &["contents"]));
    out
}

/// A `completion/complete` result: the values, the total and whether there are more.
pub(crate) fn completion_result(result: &Value) -> String {
    let Some(c) = result.get("completion") else {
        return json_block(result);
    };
    let values: Vec<String> = c
        .get("values")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|v| format!("<code>{}</code>", text(v.as_str().unwrap_or_default())))
        .collect();
    let mut out = format!("<p class=\"values\">{}</p>", values.join(" "));
    let mut facts = Vec::new();
    if let Some(total) = c.get("total") {
        facts.push(format!("total {}", text(&total.to_string())));
    }
    if c.get("hasMore") == Some(&Value::Bool(true)) {
        facts.push("more available".to_owned());
    }
    if !facts.is_empty() {
        out.push_str(&format!("<p class=\"facts\">{}</p>", facts.join(" · ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn images_are_shown_only_when_embedded_rasters() {
        let png = block(&json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}));
        assert!(png.contains("src=\"data:image/png;base64,iVBORw0KGgo=\""));
        let svg = block(&json!({"type": "image", "data": "PHN2Zz4=", "mimeType": "image/svg+xml"}));
        assert!(!svg.contains("<img"));
        let odd = block(&json!({"type": "image", "data": "\"><script>", "mimeType": "image/png"}));
        assert!(!odd.contains("<img") && !odd.contains("<script"));
    }

    #[test]
    fn json_text_is_pretty_printed() {
        let html = text_block("{\"a\":[1,2]}");
        assert!(html.contains("{\n  &quot;a&quot;: [\n    1,"), "{html}");
        assert!(text_block("plain").contains("class=\"text\""));
    }
}
