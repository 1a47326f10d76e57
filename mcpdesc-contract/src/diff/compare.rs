//! The comparison of two descriptions: the document, then each protocol version both
//! describe (its views' primitives and security), the same change found in several
//! views merged, every change located and ordered.

use std::collections::BTreeMap;

use super::bump::{self, VersionBump};
use super::change::{Change, Report};
use super::found::Found;
use super::side::{DiffError, Side};
use super::{document, primitives, security, view};
use mcpdesc_description::description::Description;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::VersionSet;

/// Compares two descriptions. Both must be valid.
pub fn diff(old: &Description, new: &Description) -> Result<Report, DiffError> {
    let old = Side::new(old)?;
    let new = Side::new(new)?;
    let common = old.root.intersect(new.root);

    // Changes per version, merged: the same finding in several views once.
    let mut merged: BTreeMap<String, (Found, VersionSet)> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut add = |found: Found, versions: VersionSet| {
        let key = serde_json::to_string(&(
            found.rule.id,
            found.subject,
            &found.name,
            &found.path,
            found.old.as_ref().map(Pointer::as_str),
            found.new.as_ref().map(Pointer::as_str),
            &found.message,
            &found.witness,
        ))
        .unwrap_or_default();
        match merged.get_mut(&key) {
            Some((_, set)) => *set = set.union(versions),
            None => {
                order.push(key.clone());
                merged.insert(key, (found, versions));
            }
        }
    };
    for found in document::versions(&old, &new) {
        add(found, old.root.union(new.root));
    }
    for found in document::unscoped(&old, &new) {
        add(found, common);
    }
    let mut cache = primitives::cache::Cache::default();
    for version in common.iter() {
        let old_view = view::View::of(&old, version);
        let new_view = view::View::of(&new, version);
        let mut found = document::view(&old_view, &new_view);
        found.extend(primitives::compare(&old_view, &new_view, &mut cache));
        found.extend(security::compare(&old_view, &new_view));
        for f in found {
            add(f, VersionSet::only(version));
        }
    }

    let mut changes: Vec<Change> = order
        .into_iter()
        .filter_map(|key| merged.remove(&key))
        .map(|(f, versions)| Change {
            rule: f.rule,
            subject: f.subject,
            name: f.name,
            path: f.path,
            old: f.old.as_ref().map(|p| old.locate(p)),
            new: f.new.as_ref().map(|p| new.locate(p)),
            versions,
            message: f.message,
            witness: f.witness,
        })
        .collect();
    // Breaking first (from the client's side, the default), then by subject and place.
    changes.sort_by(|a, b| {
        (
            a.rule.client,
            a.subject,
            &a.name,
            a.rule.id,
            &a.path,
            &a.message,
        )
            .cmp(&(
                b.rule.client,
                b.subject,
                &b.name,
                b.rule.id,
                &b.path,
                &b.message,
            ))
    });
    let info_version = |side: &Side<'_>| {
        side.doc
            .pointer("/info/version")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let (old_version, new_version) = (info_version(&old), info_version(&new));
    let version = VersionBump {
        needed: bump::needed(changes.iter().map(|c| c.rule)),
        made: bump::made(&old_version, &new_version),
        old: old_version,
        new: new_version,
    };
    Ok(Report {
        old_name: old.desc.name.clone(),
        new_name: new.desc.name.clone(),
        common_versions: common,
        changes,
        version,
    })
}
