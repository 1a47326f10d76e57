//! The module tree of one crate target: its files, parsed, and their modules.
//!
//! `mod x;` is followed the way rustc follows it: `x.rs` or `x/mod.rs` beside a root or
//! `mod.rs` file, under a folder named after any other file, `#[path]` relative to the
//! declaring file's folder (inside inline modules: to their folder), and a file loaded
//! through `#[path]` owns its folder like a `mod.rs`. Declarations under `#[cfg]` count
//! too: every file the target can compile is a node. Files pulled in with `include!` are
//! generated code and not followed; neither are modules declared inside function bodies.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// Index of a file in [`Crate::files`].
pub type FileId = usize;
/// Index of a module in [`Crate::modules`]; the crate root is `0`.
pub type ModId = usize;

/// A parsed source file, shared by every target that reaches it.
pub struct Parsed {
    /// The syntax tree (with source positions: proc-macro2's `span-locations`).
    pub syntax: syn::File,
    /// Its number of lines.
    pub lines: usize,
}

/// The files parsed so far, by path: a file included by many targets (a test harness)
/// is read and parsed once.
#[derive(Default)]
pub struct FileCache {
    parsed: HashMap<PathBuf, Rc<Parsed>>,
}

impl FileCache {
    /// The parsed file at `path`, read and parsed on first use.
    pub fn get(&mut self, path: &Path) -> Result<Rc<Parsed>, String> {
        if let Some(parsed) = self.parsed.get(path) {
            return Ok(parsed.clone());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("{}: cannot read: {error}", path.display()))?;
        let syntax = syn::parse_file(&text).map_err(|error| {
            let at = error.span().start();
            format!(
                "{}:{}:{}: cannot parse: {error}",
                path.display(),
                at.line,
                at.column + 1
            )
        })?;
        let parsed = Rc::new(Parsed {
            syntax,
            lines: text.lines().count(),
        });
        self.parsed.insert(path.to_path_buf(), parsed.clone());
        Ok(parsed)
    }
}

/// A source file of the target: a node of the import graph.
pub struct SourceFile {
    /// Its path, `..` and `.` removed.
    pub path: PathBuf,
    /// Its syntax.
    pub parsed: Rc<Parsed>,
}

/// A module: the root, a file module or an inline `mod x { ... }`.
pub struct Module {
    /// Its parent; `None` for the crate root.
    pub parent: Option<ModId>,
    /// The file holding it (an inline module belongs to its file).
    pub file: FileId,
    /// Whether it is the top of its file (the root or a `mod x;`), not inline.
    pub file_top: bool,
    /// The modules it declares, by name (the first of two `#[cfg]` alternatives).
    pub children: BTreeMap<String, ModId>,
    /// Its `use` items (not those inside function bodies).
    pub uses: Vec<syn::ItemUse>,
}

/// The module tree of one target.
pub struct Crate {
    /// Its files; a file loaded twice (two `#[path]`s) is one node.
    pub files: Vec<SourceFile>,
    /// Its modules; `modules[0]` is the root.
    pub modules: Vec<Module>,
    /// Inline modules by file and the position of their name.
    inline: HashMap<(FileId, usize, usize), ModId>,
}

impl Crate {
    /// Reads the module tree whose root file is `root`.
    pub fn load(root: &Path, cache: &mut FileCache) -> Result<Crate, String> {
        let mut krate = Crate {
            files: Vec::new(),
            modules: Vec::new(),
            inline: HashMap::new(),
        };
        krate.add_file_module(None, &normalize(root), true, cache, 0)?;
        Ok(krate)
    }

    /// The inline module declared in `file` with its name at `line`:`column`.
    pub fn inline_module(&self, file: FileId, line: usize, column: usize) -> Option<ModId> {
        self.inline.get(&(file, line, column)).copied()
    }

    /// The file modules of the target, with their file: where each walk of paths starts.
    pub fn file_modules(&self) -> impl Iterator<Item = (ModId, &Module)> {
        self.modules
            .iter()
            .enumerate()
            .filter(|(_, module)| module.file_top)
    }

    fn add_file_module(
        &mut self,
        parent: Option<ModId>,
        path: &Path,
        owns_folder: bool,
        cache: &mut FileCache,
        depth: usize,
    ) -> Result<ModId, String> {
        if depth > 64 {
            return Err(format!("{}: modules nested 64 deep", path.display()));
        }
        let parsed = cache.get(path)?;
        let file = match self.files.iter().position(|file| file.path == path) {
            Some(file) => file,
            None => {
                self.files.push(SourceFile {
                    path: path.to_path_buf(),
                    parsed: parsed.clone(),
                });
                self.files.len() - 1
            }
        };
        let id = self.new_module(parent, file, true);
        let folder = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let child_folder = if owns_folder {
            folder.clone()
        } else {
            folder.join(path.file_stem().unwrap_or_default())
        };
        let place = Place {
            module: id,
            file,
            child_folder,
            path_base: folder,
        };
        self.add_items(&parsed.syntax.items, &place, cache, depth)?;
        Ok(id)
    }

    fn new_module(&mut self, parent: Option<ModId>, file: FileId, file_top: bool) -> ModId {
        self.modules.push(Module {
            parent,
            file,
            file_top,
            children: BTreeMap::new(),
            uses: Vec::new(),
        });
        self.modules.len() - 1
    }

    fn add_items(
        &mut self,
        items: &[syn::Item],
        place: &Place,
        cache: &mut FileCache,
        depth: usize,
    ) -> Result<(), String> {
        for item in items {
            match item {
                syn::Item::Use(item) => self.modules[place.module].uses.push(item.clone()),
                syn::Item::Mod(item) => {
                    let child = self.add_mod(item, place, cache, depth)?;
                    let name = item.ident.to_string();
                    self.modules[place.module]
                        .children
                        .entry(name)
                        .or_insert(child);
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn add_mod(
        &mut self,
        item: &syn::ItemMod,
        place: &Place,
        cache: &mut FileCache,
        depth: usize,
    ) -> Result<ModId, String> {
        let name = item.ident.to_string();
        let path_attribute = path_attribute(&item.attrs);
        if let Some((_, items)) = &item.content {
            let id = self.new_module(Some(place.module), place.file, false);
            let at = item.ident.span().start();
            self.inline.insert((place.file, at.line, at.column), id);
            let folder = match &path_attribute {
                Some(path) => place.path_base.join(path),
                None => place.child_folder.join(&name),
            };
            let inner = Place {
                module: id,
                file: place.file,
                child_folder: folder.clone(),
                path_base: folder,
            };
            self.add_items(items, &inner, cache, depth)?;
            return Ok(id);
        }
        let (path, owns_folder) = match path_attribute {
            Some(path) => (normalize(&place.path_base.join(path)), true),
            None => {
                let flat = normalize(&place.child_folder.join(format!("{name}.rs")));
                let nested = normalize(&place.child_folder.join(&name).join("mod.rs"));
                if flat.is_file() || !nested.is_file() {
                    (flat, false)
                } else {
                    (nested, true)
                }
            }
        };
        let declared = self.files[place.file].path.display().to_string();
        let line = item.ident.span().start().line;
        self.add_file_module(Some(place.module), &path, owns_folder, cache, depth + 1)
            .map_err(|error| format!("{error}\n  (module `{name}` declared at {declared}:{line})"))
    }
}

/// Where the items of a module are: what `mod x;` and `#[path]` are relative to.
struct Place {
    module: ModId,
    file: FileId,
    /// The folder of `x.rs` / `x/mod.rs` for a `mod x;` here.
    child_folder: PathBuf,
    /// What `#[path]` is relative to here.
    path_base: PathBuf,
}

/// The value of a `#[path = "..."]` attribute.
fn path_attribute(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|attr| match &attr.meta {
        syn::Meta::NameValue(meta) if meta.path.is_ident("path") => match &meta.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(path),
                ..
            }) => Some(path.value()),
            _ => None,
        },
        _ => None,
    })
}

/// `path` with `.` and `..` resolved lexically, so that one file reached through two
/// relative paths is one node.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}
