//! Which module a path names: the names in scope and the walk through modules.
//!
//! A path starts at `crate::`/`$crate::` (the root), `self::` (the module it is written
//! in), `super::` (its parent, repeatable), or a module name in scope: a child module,
//! or a name a `use` binds to a module (explicitly, or through a glob, which binds the
//! child modules of the module it imports). From there it walks through declared child
//! modules only: a name a module merely imports (a re-export) ends the walk.

use std::collections::HashMap;

use crate::modules::{Crate, ModId};

/// One imported path of a `use` tree, flattened: `use a::{b, c::*}` is `a::b` and
/// `a::c::*`.
pub struct UseLeaf {
    /// The path's segments, without a trailing `*` or `self`.
    pub segments: Vec<String>,
    /// The name it binds (after `as`), `None` for a glob or `_`.
    pub binds: Option<String>,
    /// Whether it is a glob (`::*`).
    pub glob: bool,
    /// Where it is written (the line of its last segment).
    pub line: usize,
}

impl UseLeaf {
    /// The path as written, for reports: `crate::a::B`, `super::*`.
    pub fn text(&self) -> String {
        let mut text = self.segments.join("::");
        if self.glob {
            text.push_str("::*");
        }
        text
    }
}

/// The leaves of a `use` item; an absolute `use ::x` has none (another crate).
pub fn use_leaves(item: &syn::ItemUse) -> Vec<UseLeaf> {
    let mut leaves = Vec::new();
    if item.leading_colon.is_none() {
        flatten(&item.tree, &mut Vec::new(), &mut leaves);
    }
    leaves
}

fn flatten(tree: &syn::UseTree, prefix: &mut Vec<String>, leaves: &mut Vec<UseLeaf>) {
    let leaf = |prefix: &[String], last: Option<&syn::Ident>, binds: Option<String>, line| {
        let mut segments = prefix.to_vec();
        if let Some(last) = last.filter(|last| *last != "self") {
            segments.push(last.to_string());
        }
        UseLeaf {
            binds: binds.filter(|name| name != "_"),
            glob: false,
            segments,
            line,
        }
    };
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            flatten(&path.tree, prefix, leaves);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            // `use a::{self}` binds `a`.
            let binds = if name.ident == "self" {
                prefix.last().cloned()
            } else {
                Some(name.ident.to_string())
            };
            let line = name.ident.span().start().line;
            leaves.push(leaf(prefix, Some(&name.ident), binds, line));
        }
        syn::UseTree::Rename(rename) => {
            let line = rename.ident.span().start().line;
            let binds = Some(rename.rename.to_string());
            leaves.push(leaf(prefix, Some(&rename.ident), binds, line));
        }
        syn::UseTree::Glob(glob) => leaves.push(UseLeaf {
            segments: prefix.clone(),
            binds: None,
            glob: true,
            line: glob.star_token.span.start().line,
        }),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                flatten(tree, prefix, leaves);
            }
        }
    }
}

/// The names `use` items bind in one scope (a module, or a block in a function).
#[derive(Clone, Default, PartialEq)]
pub struct Bindings {
    /// Names bound by a non-glob `use`: to a module of the crate, or to something else
    /// (an item, another crate), which hides a glob's module of the same name.
    pub explicit: HashMap<String, Option<ModId>>,
    /// Names a glob `use` binds to a child module of the module it imports.
    pub globs: HashMap<String, ModId>,
}

impl Bindings {
    fn lookup(&self, name: &str) -> Option<Option<ModId>> {
        match self.explicit.get(name) {
            Some(bound) => Some(*bound),
            None => self.globs.get(name).map(|module| Some(*module)),
        }
    }

    /// Adds what the leaves of `use` items bind, resolved in `scope`.
    pub fn bind(&mut self, leaves: &[UseLeaf], scope: &Scope) {
        for leaf in leaves {
            let target = scope.resolve(&leaf.segments, leaf.segments.len());
            if leaf.glob {
                if let Some((module, walked)) = target {
                    if walked == leaf.segments.len() {
                        for (name, child) in &scope.krate.modules[module].children {
                            self.globs.insert(name.clone(), *child);
                        }
                    }
                }
            } else if let Some(name) = &leaf.binds {
                let module = target
                    .filter(|(_, walked)| *walked == leaf.segments.len())
                    .map(|(module, _)| module);
                self.explicit.insert(name.clone(), module);
            }
        }
    }
}

/// What every module's own `use` items bind, computed to a fixpoint: `use a::b;` may
/// walk from a name another `use` of the module binds.
pub fn module_bindings(krate: &Crate) -> Vec<Bindings> {
    let leaves: Vec<Vec<UseLeaf>> = krate
        .modules
        .iter()
        .map(|module| module.uses.iter().flat_map(use_leaves).collect())
        .collect();
    let mut bindings = vec![Bindings::default(); krate.modules.len()];
    // Each round can only bind names through names bound in the one before; a chain of
    // aliases longer than this is not written by hand.
    for _ in 0..16 {
        let mut next = Vec::with_capacity(bindings.len());
        for (module, leaves) in leaves.iter().enumerate() {
            let scope = Scope {
                krate,
                modules: &bindings,
                module,
                blocks: &[],
            };
            let mut own = Bindings::default();
            own.bind(leaves, &scope);
            next.push(own);
        }
        if next == bindings {
            break;
        }
        bindings = next;
    }
    bindings
}

/// The names visible where a path is written.
pub struct Scope<'a> {
    /// The target's modules.
    pub krate: &'a Crate,
    /// What each module's `use` items bind ([`module_bindings`]).
    pub modules: &'a [Bindings],
    /// The module the path is written in.
    pub module: ModId,
    /// The enclosing blocks' bindings, outermost first.
    pub blocks: &'a [Bindings],
}

impl Scope<'_> {
    /// The module `name` means here, if it means one of the crate's modules.
    fn lookup(&self, name: &str) -> Option<ModId> {
        for block in self.blocks.iter().rev() {
            if let Some(bound) = block.lookup(name) {
                return bound;
            }
        }
        if let Some(child) = self.krate.modules[self.module].children.get(name) {
            return Some(*child);
        }
        self.modules[self.module].lookup(name).flatten()
    }

    /// The deepest module `segments` reaches, walking at most `limit` segments (the
    /// last segment of a path in code names an item, a macro or a value, never a
    /// module), and how many segments it walked; `None` when the path does not start
    /// in this crate.
    pub fn resolve(&self, segments: &[String], limit: usize) -> Option<(ModId, usize)> {
        let first = segments.first()?;
        let mut module = match first.as_str() {
            "crate" | "$crate" => 0,
            "self" => self.module,
            "super" => self.krate.modules[self.module].parent?,
            name => self.lookup(name)?,
        };
        let limit = limit.min(segments.len());
        let mut walked = 1;
        while first == "super" && segments.get(walked).is_some_and(|s| s == "super") {
            module = self.krate.modules[module].parent?;
            walked += 1;
        }
        while walked < limit {
            match self.krate.modules[module].children.get(&segments[walked]) {
                Some(child) => module = *child,
                None => break,
            }
            walked += 1;
        }
        Some((module, walked))
    }
}
