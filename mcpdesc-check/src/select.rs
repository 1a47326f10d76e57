//! `--examples SEL` and `--generate SEL`: which primitives (and examples) a check may
//! call. Nothing is called unless selected (MCP Description §9.3 forbids calling a
//! live tool merely because an example exists).

use std::collections::BTreeSet;

/// An explicit selection of what may be called.
///
/// Parsed from a comma-separated list (the option may also be repeated):
/// - `all`: every tool, prompt, resource and resource template;
/// - `read-only`: tools annotated `readOnlyHint: true` in the description (annotations
///   are advisory: this trusts the description), and every prompt, resource and
///   template (their MCP methods only read);
/// - `NAME`: the tool or prompt of that name, the resource of that URI or name, the
///   template of that URI template or name;
/// - `NAME/EXAMPLE`: one example of it (for `--examples`).
///
/// ```
/// use mcpdesc_check::Selection;
/// let sel = Selection::parse("analyze_game/scholars-mate,read-only").unwrap();
/// assert!(sel.example("analyze_game", "scholars-mate", false));
/// assert!(!sel.example("analyze_game", "empty-pgn", false));
/// assert!(sel.example("get_player_rating", "x", true));
/// assert!(!Selection::none().any());
/// assert!(Selection::parse("a,,b").is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    all: bool,
    read_only: bool,
    names: BTreeSet<String>,
    examples: BTreeSet<(String, String)>,
}

impl Selection {
    /// Selects nothing (the default: no call at all).
    pub fn none() -> Self {
        Selection::default()
    }

    /// Selects everything.
    pub fn all() -> Self {
        Selection {
            all: true,
            ..Selection::default()
        }
    }

    /// Parses a comma-separated selection; an empty item is an error.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut selection = Selection::none();
        selection.add(text)?;
        Ok(selection)
    }

    /// Adds the items of another comma-separated selection (a repeated option).
    pub fn add(&mut self, text: &str) -> Result<(), String> {
        for item in text.split(',').map(str::trim) {
            match item {
                "" => return Err(format!("`{text}` has an empty item (syntax: NAME, NAME/EXAMPLE, read-only or all, comma-separated)")),
                "all" => self.all = true,
                "read-only" => self.read_only = true,
                _ => match item.rsplit_once('/') {
                    // A URI holds slashes: `NAME/EXAMPLE` splits at the last one, and
                    // the whole item is kept as a name too.
                    Some((name, example)) if !name.is_empty() && !example.is_empty() => {
                        self.examples.insert((name.to_owned(), example.to_owned()));
                        self.names.insert(item.to_owned());
                    }
                    _ => {
                        self.names.insert(item.to_owned());
                    }
                },
            }
        }
        Ok(())
    }

    /// Whether anything at all is selected.
    pub fn any(&self) -> bool {
        self.all || self.read_only || !self.names.is_empty() || !self.examples.is_empty()
    }

    /// Whether the primitive known by any of `names` (a tool's name; a resource's URI
    /// and name) is selected as a whole; `read_only` says whether it counts as
    /// read-only.
    pub fn primitive_any(&self, names: &[&str], read_only: bool) -> bool {
        self.all || (self.read_only && read_only) || names.iter().any(|n| self.names.contains(*n))
    }

    /// [`Selection::primitive_any`] for one name.
    pub fn primitive(&self, name: &str, read_only: bool) -> bool {
        self.primitive_any(&[name], read_only)
    }

    /// Whether `example` of the primitive known by any of `names` is selected.
    pub fn example_any(&self, names: &[&str], example: &str, read_only: bool) -> bool {
        self.primitive_any(names, read_only)
            || names.iter().any(|n| {
                self.examples
                    .contains(&((*n).to_owned(), example.to_owned()))
            })
    }

    /// [`Selection::example_any`] for one name.
    pub fn example(&self, name: &str, example: &str, read_only: bool) -> bool {
        self.example_any(&[name], example, read_only)
    }

    /// The items that name nothing: `known(name, None)` says whether a primitive has
    /// that name, `known(name, Some(example))` whether it has that example (to report
    /// a selection that calls nothing).
    pub fn unknown<'a>(&'a self, known: &dyn Fn(&str, Option<&str>) -> bool) -> Vec<&'a str> {
        self.names
            .iter()
            .filter(|item| {
                !known(item, None)
                    && !self
                        .examples
                        .iter()
                        .any(|(n, e)| format!("{n}/{e}") == **item && known(n, Some(e)))
            })
            .map(String::as_str)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::Selection;

    #[test]
    fn names_examples_and_uris() {
        let sel =
            Selection::parse("chess://rating-pools, get_player_rating/new-player-blitz").unwrap();
        // A URI holds slashes: the whole item selects the resource.
        assert!(sel.primitive("chess://rating-pools", false));
        assert!(sel.example("chess://rating-pools", "all-pools", false));
        // `NAME/EXAMPLE` selects that example only, not the tool.
        assert!(sel.example("get_player_rating", "new-player-blitz", false));
        assert!(!sel.example("get_player_rating", "other", false));
        assert!(!sel.primitive("get_player_rating", true));
        // read-only follows the annotation given.
        let ro = Selection::parse("read-only").unwrap();
        assert!(ro.primitive("a", true) && !ro.primitive("a", false));
        assert!(Selection::all().primitive("anything", false));
        // Unknown items, with the example checked when there is one.
        let known = |name: &str, example: Option<&str>| {
            name == "get_player_rating" && example.is_none_or(|e| e == "new-player-blitz")
                || name == "chess://rating-pools"
        };
        assert!(sel.unknown(&known).is_empty());
        let typo = Selection::parse("get_player_ratin,get_player_rating/x").unwrap();
        assert_eq!(
            typo.unknown(&known),
            ["get_player_ratin", "get_player_rating/x"]
        );
        // Repeated options add up.
        let mut twice = Selection::parse("a").unwrap();
        twice.add("b").unwrap();
        assert!(twice.primitive("a", false) && twice.primitive("b", false));
        assert!(Selection::parse(",").is_err());
    }
}
