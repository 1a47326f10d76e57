//! `docs/writing-descriptions.md`: every complete description in it (a fenced block
//! marked `mcpdesc`) is valid, and every broken one (marked `mcpdesc-invalid RULE`) is
//! refused with an error of that rule.

use std::path::Path;

use mcpdesc_codegen::source::Format;
use mcpdesc_codegen::{Description, Limits};

/// The fenced blocks of the guide: (info string, body, line of the fence).
fn blocks() -> Vec<(String, String, usize)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/writing-descriptions.md");
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for (n, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.to_owned(), String::new(), n + 1)),
            (Some(_), Some("")) => out.push(open.take().unwrap()),
            (Some((_, body, _)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "an unclosed fence");
    out
}

fn load(info: &str, body: &str, line: usize) -> Description {
    let format = if info.starts_with("yaml") {
        Format::Yaml
    } else {
        Format::Json
    };
    Description::from_text(
        &format!("writing-descriptions.md:{line}"),
        body.to_owned(),
        Some(format),
        &Limits::default(),
    )
}

#[test]
fn every_complete_description_of_the_guide_is_valid() {
    let mut valid = 0;
    for (info, body, line) in blocks() {
        let mut words = info.split_whitespace();
        let (Some(_lang), Some("mcpdesc")) = (words.next(), words.next()) else {
            continue;
        };
        let desc = load(&info, &body, line);
        assert!(desc.is_valid(), "{}", desc.render_diagnostics());
        assert_eq!(desc.warnings().count(), 0, "{}", desc.render_diagnostics());
        valid += 1;
    }
    assert!(valid >= 6, "only {valid} descriptions checked");
}

#[test]
fn every_broken_description_of_the_guide_gets_its_rule() {
    let mut broken = 0;
    for (info, body, line) in blocks() {
        let mut words = info.split_whitespace();
        let (Some(_lang), Some("mcpdesc-invalid"), Some(rule)) =
            (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let desc = load(&info, &body, line);
        assert!(!desc.is_valid(), "line {line}: valid");
        assert!(
            desc.errors().any(|d| d.rule == rule),
            "line {line}: no {rule} error:\n{}",
            desc.render_diagnostics()
        );
        broken += 1;
    }
    assert!(broken >= 4, "only {broken} broken descriptions checked");
}
