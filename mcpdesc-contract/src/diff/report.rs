//! Rendering a [`Report`]: rustc-like text for people, one JSON object for CI.
//!
//! ```text
//! breaking[input.type.changed]: tool "get_note" input id: type changed from integer to string
//!   --> notes.v2.mcpdesc.json:45:13 (/tools/1/inputSchema/properties/id/type)
//!    = old: notes.v1.mcpdesc.json:45:13 (/tools/1/inputSchema/properties/id/type)
//!    = witness: {"id":0} (the old inputSchema accepts it, the new one rejects it)
//! ```

use serde_json::{json, Value};

use super::bump::Bump;
use super::change::{Change, FailOn, Location, Report};
use super::rules::{Level, Perspective};
use super::values::version_names;

/// The changes ordered for one perspective: breaking first.
fn ordered(report: &Report, perspective: Perspective) -> Vec<&Change> {
    let mut changes: Vec<&Change> = report.changes.iter().collect();
    changes.sort_by_key(|c| c.level(perspective));
    changes
}

fn place(file: &str, loc: &Location) -> String {
    let pointer = if loc.pointer.is_empty() {
        "(document root)"
    } else {
        &loc.pointer
    };
    if loc.line > 0 {
        format!("{file}:{}:{} ({pointer})", loc.line, loc.column)
    } else {
        format!("{file} ({pointer})")
    }
}

/// Text for people, ending with a summary line.
pub(super) fn human(report: &Report, perspective: Perspective) -> String {
    let mut out = String::new();
    for change in ordered(report, perspective) {
        out.push_str(&format!(
            "{}[{}]: {}\n",
            change.level(perspective),
            change.rule.id,
            change.message
        ));
        match (&change.new, &change.old) {
            (Some(new), old) => {
                out.push_str(&format!("  --> {}\n", place(&report.new_name, new)));
                if let Some(old) = old {
                    out.push_str(&format!("   = old: {}\n", place(&report.old_name, old)));
                }
            }
            (None, Some(old)) => {
                out.push_str(&format!("  --> {}\n", place(&report.old_name, old)));
            }
            (None, None) => {}
        }
        if let Some(w) = &change.witness {
            out.push_str(&format!(
                "   = witness: {w} (the old inputSchema accepts it, the new one rejects it)\n"
            ));
        }
        if !change.versions.is_empty()
            && change.versions != report.common_versions
            && change.versions.is_subset(report.common_versions)
        {
            out.push_str(&format!("   = only for {}\n", change.versions));
        }
        out.push('\n');
    }
    out.push_str(&version_line(report));
    let (b, w, c) = (
        report.count(perspective, Level::Breaking),
        report.count(perspective, Level::Warning),
        report.count(perspective, Level::Compatible),
    );
    if report.changes.is_empty() {
        out.push_str(&format!(
            "{} -> {}: no changes\n",
            report.old_name, report.new_name
        ));
    } else {
        out.push_str(&format!(
            "{} -> {}: {b} breaking, {w} warning{}, {c} compatible ({} perspective)\n",
            report.old_name,
            report.new_name,
            if w == 1 { "" } else { "s" },
            perspective.as_str()
        ));
    }
    out
}

/// What the report says of the version: the bump the changes need, what
/// `info.version` did, and a warning (`info.version.bump-missing`) when too little.
fn version_line(report: &Report) -> String {
    let v = &report.version;
    let moved = format!("info.version {:?} -> {:?}", v.old, v.new);
    if v.too_small() {
        format!(
            "warning[info.version.bump-missing]: the changes need {}, but {moved} is {}\n\n",
            v.needed_text(),
            match v.made {
                Some(Bump::None) | None => "no bump".to_owned(),
                Some(made) => format!("only a {made} bump"),
            }
        )
    } else {
        let made = match v.made {
            Some(made) => format!("a {made} bump"),
            None => "not comparable as SemVer".to_owned(),
        };
        format!(
            "version: the changes need {}; {moved} is {made}\n",
            v.needed_text()
        )
    }
}

/// The JSON shape documented in `docs/diff.md`.
pub(super) fn json(report: &Report, perspective: Perspective, fail_on: FailOn) -> Value {
    let changes: Vec<Value> = ordered(report, perspective)
        .into_iter()
        .map(|c| {
            json!({
                "rule": c.rule.id,
                "level": c.level(perspective),
                "levels": {"client": c.rule.client, "server": c.rule.server},
                "subject": c.subject,
                "name": c.name,
                "path": c.path,
                "message": c.message,
                "old": c.old,
                "new": c.new,
                "protocolVersions": version_names(c.versions),
                "witness": c.witness,
            })
        })
        .collect();
    json!({
        "old": report.old_name,
        "new": report.new_name,
        "perspective": perspective,
        "failOn": match fail_on { FailOn::Breaking => "breaking", FailOn::Warning => "warning" },
        "failed": report.fails(perspective, fail_on),
        "summary": {
            "breaking": report.count(perspective, Level::Breaking),
            "warning": report.count(perspective, Level::Warning),
            "compatible": report.count(perspective, Level::Compatible),
        },
        "changes": changes,
        "versionBump": {
            "needed": report.version.needed,
            "old": report.version.old,
            "new": report.version.new,
            "made": report.version.made,
            "warning": report.version.too_small().then(|| format!(
                "info.version.bump-missing: the changes need {}, but info.version went from {:?} to {:?}",
                report.version.needed_text(), report.version.old, report.version.new
            )),
        },
    })
}

impl Report {
    /// The human rendering: rustc-like blocks, breaking changes first, then a summary
    /// line (`docs/diff.md` shows an example).
    pub fn render(&self, perspective: Perspective) -> String {
        human(self, perspective)
    }

    /// The JSON rendering for CI (shape documented in `docs/diff.md`).
    pub fn to_json(&self, perspective: Perspective, fail_on: FailOn) -> Value {
        json(self, perspective, fail_on)
    }
}
