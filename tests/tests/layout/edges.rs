//! The edges of one target: every path of every file that names an item of another.

use syn::visit::Visit;

use crate::doc_links::DocReader;
use crate::graph::{Graph, Site};
use crate::modules::{Crate, FileId, ModId};
use crate::scope::{module_bindings, use_leaves, Bindings, Scope};
use crate::tokens;

/// The import graph of a target: its files as nodes, an edge per file naming items of
/// another, with every site.
pub fn graph(krate: &Crate) -> Graph {
    let bindings = module_bindings(krate);
    let mut graph = Graph {
        files: krate.files.iter().map(|file| file.path.clone()).collect(),
        ..Graph::default()
    };
    for (module, top) in krate.file_modules() {
        let mut collector = Collector {
            krate,
            bindings: &bindings,
            file: top.file,
            modules: vec![module],
            blocks: Vec::new(),
            docs: DocReader::default(),
            graph: &mut graph,
        };
        collector.visit_file(&krate.files[top.file].parsed.syntax);
    }
    graph
}

/// Walks one file with the scope of each place in it.
struct Collector<'a> {
    krate: &'a Crate,
    bindings: &'a [Bindings],
    file: FileId,
    /// The file's module, then the inline modules we are in.
    modules: Vec<ModId>,
    /// The bindings of the blocks we are in.
    blocks: Vec<Bindings>,
    docs: DocReader,
    graph: &'a mut Graph,
}

impl Collector<'_> {
    fn scope(&self) -> Scope<'_> {
        Scope {
            krate: self.krate,
            modules: self.bindings,
            module: *self.modules.last().expect("a module"),
            blocks: &self.blocks,
        }
    }

    /// Notes the edge a path makes, walking at most `limit` of its segments.
    fn path(&mut self, segments: &[String], limit: usize, line: usize, text: String) {
        if let Some((module, _)) = self.scope().resolve(segments, limit) {
            let to = self.krate.modules[module].file;
            self.graph.add(self.file, to, Site { line, text });
        }
    }

    fn doc(&mut self, attr: &syn::Attribute) {
        let syn::Meta::NameValue(meta) = &attr.meta else {
            return;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &meta.value
        else {
            return;
        };
        if !meta.path.is_ident("doc") {
            return;
        }
        for link in self.docs.read(&text.value(), text.span().start().line) {
            let shown = format!("[{}] (doc link)", link.segments.join("::"));
            self.path(&link.segments, link.segments.len(), link.line, shown);
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let (outer, inner): (Vec<_>, Vec<_>) = item
            .attrs
            .iter()
            .partition(|attr| matches!(attr.style, syn::AttrStyle::Outer));
        for attr in outer {
            self.visit_attribute(attr);
        }
        let Some((_, items)) = &item.content else {
            return;
        };
        let at = item.ident.span().start();
        let inline = self.krate.inline_module(self.file, at.line, at.column);
        // A module inside a function body is not in the tree: its paths are read in the
        // enclosing module's scope.
        let entered = inline.is_some();
        if let Some(module) = inline {
            self.modules.push(module);
        }
        let blocks = std::mem::take(&mut self.blocks);
        for attr in inner {
            self.visit_attribute(attr);
        }
        for item in items {
            self.visit_item(item);
        }
        self.blocks = blocks;
        if entered {
            self.modules.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        for attr in &item.attrs {
            self.visit_attribute(attr);
        }
        for leaf in use_leaves(item) {
            let Some((module, walked)) = self.scope().resolve(&leaf.segments, leaf.segments.len())
            else {
                continue;
            };
            // `use crate::http;` only binds a name: what is later named through it makes
            // the edges. A glob names every item of the module it imports.
            if walked == leaf.segments.len() && !leaf.glob {
                continue;
            }
            let to = self.krate.modules[module].file;
            let site = Site {
                line: leaf.line,
                text: leaf.text(),
            };
            self.graph.add(self.file, to, site);
        }
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        let leaves: Vec<_> = block
            .stmts
            .iter()
            .filter_map(|stmt| match stmt {
                syn::Stmt::Item(syn::Item::Use(item)) => Some(use_leaves(item)),
                _ => None,
            })
            .flatten()
            .collect();
        let mut own = Bindings::default();
        own.bind(&leaves, &self.scope());
        self.blocks.push(own);
        syn::visit::visit_block(self, block);
        self.blocks.pop();
    }

    // `pub(super)`, `pub(in crate::a)` restrict visibility; they name no item.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            let segments: Vec<String> = path
                .segments
                .iter()
                .map(|segment| segment.ident.to_string())
                .collect();
            let line = path.segments[0].ident.span().start().line;
            let text = segments.join("::");
            self.path(&segments, segments.len() - 1, line, text);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        if !tokens::is_generated_code(&mac.path) {
            self.tokens(mac.tokens.clone());
        }
    }

    fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
        self.doc(attr);
        // An attribute's arguments name items too (`#[arg(value_parser = crate::x)]`).
        if let syn::Meta::List(list) = &attr.meta {
            self.tokens(list.tokens.clone());
        }
        syn::visit::visit_attribute(self, attr);
    }
}

impl Collector<'_> {
    /// Notes the edges of the paths in `tokens` (a macro's input, an attribute's
    /// arguments).
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for found in tokens::paths(tokens) {
            let limit = if found.continues {
                found.segments.len()
            } else {
                found.segments.len() - 1
            };
            let text = found.segments.join("::");
            self.path(&found.segments, limit, found.line, text);
        }
    }
}
