//! Array keywords: `items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`.

use serde_json::Value;

use super::scalars::compare_limits;
use super::{empty, number, show, Cx, Node};
use crate::diff::rules;
use crate::diff::witness::{self, Mutation, Seg};

impl<'v> Cx<'v, '_> {
    pub(super) fn arrays(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_ARRAY_TIGHTENED,
            &rules::OUTPUT_ARRAY_TIGHTENED,
        );
        let loose = d.pick(&rules::INPUT_ARRAY_LOOSENED, &rules::OUTPUT_ARRAY_LOOSENED);
        for (key, lower) in [("minItems", true), ("maxItems", false)] {
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
                    len.map(Mutation::ArrayLength),
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
        let unique = |n: &Node<'v>| n.value("uniqueItems") == Some(&Value::Bool(true));
        match (unique(a), unique(b)) {
            (false, true) => self.push(
                tight,
                path,
                a.at.clone(),
                b.at_or_node("uniqueItems"),
                "items must now be unique".to_owned(),
                Some(Mutation::DuplicateItems),
            ),
            (true, false) => self.push(
                loose,
                path,
                a.at_or_node("uniqueItems"),
                b.at.clone(),
                "items no longer need to be unique".to_owned(),
                None,
            ),
            _ => {}
        }
        // `items` as one schema (tuple forms are compared index by index).
        match (a.get("items"), b.get("items")) {
            (Some((ia, pa)), Some((ib, pb))) if !ia.is_array() && !ib.is_array() => {
                let na = self.node(ia, pa, true);
                let nb = self.node(ib, pb, false);
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            (None, Some((ib, pb))) if !ib.is_array() => {
                let na = Node {
                    layers: vec![(empty(), a.at.clone())],
                    boolean: None,
                    at: a.at.clone(),
                };
                let nb = self.node(ib, pb, false);
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            (Some((ia, pa)), None) if !ia.is_array() => {
                let na = self.node(ia, pa, true);
                let nb = Node {
                    layers: vec![(empty(), b.at.clone())],
                    boolean: None,
                    at: b.at.clone(),
                };
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            _ => {}
        }
        if let (Some((Value::Array(xa), pa)), Some((Value::Array(xb), pb))) =
            (a.get("prefixItems"), b.get("prefixItems"))
        {
            for (i, (x, y)) in xa.iter().zip(xb).enumerate() {
                let na = self.node(x, pa.index(i), true);
                let nb = self.node(y, pb.index(i), false);
                path.push(Seg::Index(i));
                self.compare(&na, &nb, path);
                path.pop();
            }
        }
    }
}
