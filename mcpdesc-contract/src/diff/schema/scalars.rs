//! `enum`/`const`, numeric bounds (`minimum`, `exclusiveMaximum`, `multipleOf`, ...)
//! and string keywords (`minLength`, `maxLength`, `pattern`, `format`).

use serde_json::Value;

use super::{list, number, plural_s, show, types, Cx, Node};
use crate::diff::rules;
use crate::diff::values::{brief, json_equal};
use crate::diff::witness::{self, Mutation, Seg};
use mcpdesc_description::pointer::Pointer;

impl<'v> Cx<'v, '_> {
    pub(super) fn enums(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let values = |n: &Node<'v>| -> Option<(Vec<Value>, Pointer)> {
            if let Some((v, at)) = n.get("const") {
                return Some((vec![v.clone()], at));
            }
            let (v, at) = n.get("enum")?;
            Some((v.as_array()?.clone(), at))
        };
        let d = self.dir;
        match (values(a), values(b)) {
            (Some((ea, pa)), Some((eb, pb))) => {
                let removed: Vec<Value> = ea
                    .iter()
                    .filter(|v| !eb.iter().any(|w| json_equal(v, w)))
                    .cloned()
                    .collect();
                let added: Vec<Value> = eb
                    .iter()
                    .filter(|v| !ea.iter().any(|w| json_equal(v, w)))
                    .cloned()
                    .collect();
                if !removed.is_empty() {
                    self.push(
                        d.pick(
                            &rules::INPUT_ENUM_VALUE_REMOVED,
                            &rules::OUTPUT_ENUM_VALUE_REMOVED,
                        ),
                        path,
                        pa.clone(),
                        pb.clone(),
                        format!(
                            "enum value{} {} removed",
                            plural_s(removed.len()),
                            list(&removed)
                        ),
                        Some(Mutation::Set(removed)),
                    );
                }
                if !added.is_empty() {
                    self.push(
                        d.pick(
                            &rules::INPUT_ENUM_VALUE_ADDED,
                            &rules::OUTPUT_ENUM_VALUE_ADDED,
                        ),
                        path,
                        pa,
                        pb,
                        format!("enum value{} {} added", plural_s(added.len()), list(&added)),
                        None,
                    );
                }
            }
            (None, Some((eb, pb))) => {
                let candidates = witness::values_outside(&eb, types(a));
                self.push(
                    d.pick(&rules::INPUT_ENUM_ADDED, &rules::OUTPUT_ENUM_ADDED),
                    path,
                    a.at.clone(),
                    pb,
                    format!("now restricted to {}", list(&eb)),
                    Some(Mutation::Set(candidates)),
                );
            }
            (Some((ea, pa)), None) => self.push(
                d.pick(&rules::INPUT_ENUM_REMOVED, &rules::OUTPUT_ENUM_REMOVED),
                path,
                pa,
                b.at.clone(),
                format!("no longer restricted to {}", list(&ea)),
                None,
            ),
            (None, None) => {}
        }
    }

    pub(super) fn numbers(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_NUMERIC_TIGHTENED,
            &rules::OUTPUT_NUMERIC_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_NUMERIC_LOOSENED,
            &rules::OUTPUT_NUMERIC_LOOSENED,
        );
        let integer = types(a).only_integers();
        for (lower, inclusive, exclusive) in [
            (true, "minimum", "exclusiveMinimum"),
            (false, "maximum", "exclusiveMaximum"),
        ] {
            let (ba, bb) = (
                bound(a, inclusive, exclusive),
                bound(b, inclusive, exclusive),
            );
            if ba == bb {
                continue;
            }
            let at = |n: &Node<'v>| {
                n.get(exclusive)
                    .or_else(|| n.get(inclusive))
                    .map_or_else(|| n.at.clone(), |(_, p)| p)
            };
            let stricter = stricter_bound(lower, ba, bb);
            let looser = stricter_bound(lower, bb, ba);
            let name = if lower { "lower bound" } else { "upper bound" };
            if stricter {
                let candidates = witness::numbers_beyond(lower, ba, bb, integer);
                self.push(
                    tight,
                    path,
                    at(a),
                    at(b),
                    format!(
                        "{name} tightened from {} to {}",
                        show_bound(lower, ba),
                        show_bound(lower, bb)
                    ),
                    Some(Mutation::Set(candidates)),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    at(a),
                    at(b),
                    format!(
                        "{name} loosened from {} to {}",
                        show_bound(lower, ba),
                        show_bound(lower, bb)
                    ),
                    None,
                );
            }
        }
        let (ma, mb) = (number(a, "multipleOf"), number(b, "multipleOf"));
        if ma != mb {
            let divides = |big: f64, small: f64| (big / small).fract().abs() < 1e-9;
            let stricter = match (ma, mb) {
                (None, Some(_)) => true,
                (Some(x), Some(y)) => !divides(y, x),
                _ => false,
            };
            let looser = match (ma, mb) {
                (Some(_), None) => true,
                (Some(x), Some(y)) => !divides(x, y),
                _ => false,
            };
            let show = |m: Option<f64>| m.map_or("none".to_owned(), |m| m.to_string());
            if stricter {
                let candidates = witness::non_multiples(ma, mb.unwrap_or(1.0), integer);
                self.push(
                    tight,
                    path,
                    a.at_or_node("multipleOf"),
                    b.at_or_node("multipleOf"),
                    format!("multipleOf changed from {} to {}", show(ma), show(mb)),
                    Some(Mutation::Set(candidates)),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node("multipleOf"),
                    b.at_or_node("multipleOf"),
                    format!("multipleOf changed from {} to {}", show(ma), show(mb)),
                    None,
                );
            }
        }
    }

    pub(super) fn strings(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_STRING_TIGHTENED,
            &rules::OUTPUT_STRING_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_STRING_LOOSENED,
            &rules::OUTPUT_STRING_LOOSENED,
        );
        for (key, lower) in [("minLength", true), ("maxLength", false)] {
            let (x, y) = (number(a, key), number(b, key));
            if x == y {
                continue;
            }
            let (stricter, looser) = compare_limits(lower, x, y);
            let message = format!("{key} changed from {} to {}", show(x), show(y));
            if stricter {
                let len = witness::length_beyond(lower, x, y);
                self.push(
                    tight,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message.clone(),
                    len.map(|n| Mutation::Set(vec![Value::String("a".repeat(n))])),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message,
                    None,
                );
            }
        }
        let (pa, pb) = (a.value("pattern"), b.value("pattern"));
        match (pa, pb) {
            (None, Some(p)) => self.push(
                tight,
                path,
                a.at.clone(),
                b.at_or_node("pattern"),
                format!("pattern {} added", brief(p)),
                Some(Mutation::Set(witness::pattern_candidates())),
            ),
            (Some(p), None) => self.push(
                loose,
                path,
                a.at_or_node("pattern"),
                b.at.clone(),
                format!("pattern {} removed", brief(p)),
                None,
            ),
            (Some(x), Some(y)) if x != y => self.push(
                d.pick(
                    &rules::INPUT_PATTERN_CHANGED,
                    &rules::OUTPUT_PATTERN_CHANGED,
                ),
                path,
                a.at_or_node("pattern"),
                b.at_or_node("pattern"),
                format!("pattern changed from {} to {}", brief(x), brief(y)),
                None,
            ),
            _ => {}
        }
        let (fa, fb) = (a.value("format"), b.value("format"));
        if fa != fb {
            let show = |f: Option<&Value>| f.map_or("none".to_owned(), brief);
            self.push(
                d.pick(&rules::INPUT_FORMAT_CHANGED, &rules::OUTPUT_FORMAT_CHANGED),
                path,
                a.at_or_node("format"),
                b.at_or_node("format"),
                format!("format changed from {} to {}", show(fa), show(fb)),
                None,
            );
        }
    }
}

/// A numeric bound: value and whether it is exclusive.
type Bound = Option<(f64, bool)>;

/// The effective lower or upper bound from the inclusive and exclusive keywords
/// (draft-04 boolean `exclusiveMinimum` is read as making `minimum` exclusive).
fn bound(n: &Node<'_>, inclusive: &str, exclusive: &str) -> Bound {
    let inc = number(n, inclusive);
    match n.value(exclusive) {
        Some(Value::Number(x)) => {
            let x = x.as_f64()?;
            match inc {
                Some(i)
                    if (inclusive == "minimum" && i > x) || (inclusive == "maximum" && i < x) =>
                {
                    Some((i, false))
                }
                _ => Some((x, true)),
            }
        }
        Some(Value::Bool(true)) => inc.map(|i| (i, true)),
        _ => inc.map(|i| (i, false)),
    }
}

/// Whether `b` excludes values `a` allows (for a lower bound when `lower`).
fn stricter_bound(lower: bool, a: Bound, b: Bound) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some((x, ex)), Some((y, ey))) => {
            if lower {
                y > x || (y == x && ey && !ex)
            } else {
                y < x || (y == x && ey && !ex)
            }
        }
    }
}

fn show_bound(lower: bool, b: Bound) -> String {
    match b {
        None => "none".to_owned(),
        Some((x, false)) => format!("{} {x}", if lower { ">=" } else { "<=" }),
        Some((x, true)) => format!("{} {x}", if lower { ">" } else { "<" }),
    }
}

/// For a pair of limits (a lower one like `minLength` when `lower`): whether the new one
/// is stricter, and whether it is looser.
pub(super) fn compare_limits(lower: bool, a: Option<f64>, b: Option<f64>) -> (bool, bool) {
    match (a, b) {
        (None, Some(_)) => (true, false),
        (Some(_), None) => (false, true),
        (Some(x), Some(y)) if lower => (y > x, y < x),
        (Some(x), Some(y)) => (y < x, y > x),
        (None, None) => (false, false),
    }
}
