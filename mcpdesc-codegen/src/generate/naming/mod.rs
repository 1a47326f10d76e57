//! Rust names for tools and generated types. Deterministic: the same declared names, in
//! the same order, always give the same Rust names.
//!
//! # Rules
//!
//! 1. **Transliteration.** Non-ASCII characters are made ASCII first: the Latin-1 letters
//!    lose their diacritics (`é` → `e`, `ß` → `ss`, `Æ` → `AE`, `ø` → `o`), and any other
//!    character becomes its code point as a separate word, `u` followed by at least four
//!    lowercase hex digits (`天` → `u5929`).
//! 2. **Words.** Every character other than an ASCII letter or digit (`-`, `.`, `/`,
//!    space, `_`, ...) separates words; so do case changes (`getUser` is `get`, `user`).
//!    This is [`heck`]'s segmentation, the one `typify` applies to type names, so a name
//!    chosen here survives `typify` unchanged.
//! 3. **Case.** UpperCamelCase for traits and types (`analyze_game` → `AnalyzeGame`),
//!    snake_case for methods (`analyze-game` → `analyze_game`).
//! 4. **Leading digit or nothing left.** A name that starts with a digit is prefixed with
//!    `Tool` / `tool_` (`3d-view` → `Tool3dView`, `tool_3d_view`); a name with no letter
//!    or digit at all becomes `Tool` / `tool`.
//! 5. **Keywords.** A name that is a Rust keyword gets a trailing underscore (`type` →
//!    `type_`, `Self` → `Self_`). Raw identifiers are not used: `r#Self`, `r#self` and
//!    `r#crate` do not exist, and one rule for every keyword is easier to predict.
//! 6. **Types.** The input and output types of a tool are `{Tool}Input` and
//!    `{Tool}Output`, built from the UpperCamelCase name before rule 5 (`Self` →
//!    `SelfInput`).
//! 7. **Collisions.** Tools are named in declaration order. A tool whose trait, method or
//!    type names are already taken (by an earlier tool, or by a name the generated module
//!    reserves, such as the `Server` trait) gets the smallest numeric suffix from 2 up that
//!    makes all of them free: `get-user` and `get_user` become `GetUser` / `get_user` and
//!    `GetUser2` / `get_user_2`, with types `GetUser2Input`, `GetUser2Output`.
//!    The method names also avoid [`RESERVED_METHODS`] (the typed client's own methods)
//!    and each other's `{method}_with_content` ([`ToolNames::content_method`], claimed
//!    for every tool), because the typed `Client` has them all in one `impl`.
//!    Other generated types (shared component schemas, hoisted `$defs`, prompt
//!    `{Prompt}Arguments`, template `{Template}Variables`, and the types typify derives
//!    itself, see `typespace::build`) go through the one [`NameAllocator`] of the
//!    module, which applies the same suffix rule. The search for a free suffix resumes
//!    where the last one for the same base stopped (`NextSuffix`), so `n` names that
//!    all collide cost O(n) checks. Reserved are every name the
//!    generated code uses without a path ([`RESERVED_TRAITS`]: `T`, `S`, `Send`, `Sync`,
//!    prelude names), the client's methods and the generated modules
//!    ([`RESERVED_METHODS`]), and the prelude types ([`RESERVED_TYPES`]). The content
//!    method of a keyword tool is built without the keyword underscore
//!    (`type_with_content`, never `type__with_content`).
//! 8. **Fields and variants.** typify names fields and variants itself
//!    ([`typify_sanitize`]). Where two properties of one object (or two string values of
//!    one enum) would get the same Rust name, or a property name has no letter or digit
//!    (its type would be named like its parent), the schema preparation hands typify a
//!    *placeholder* for it ([`NameAllocator::property_keys`],
//!    [`NameAllocator::enum_values`]): the wanted Rust name followed by private-use marker
//!    characters (a marker the description's text does not contain), which typify drops
//!    from the name but writes as the serde name; the
//!    final token pass ([`super::escape`]) puts the JSON name back everywhere. A property
//!    whose JSON name already is its field name keeps it; the others take, in declaration
//!    order, the smallest free `{field}_{n}` from 2 up (`a-b` beside `a_b` → `a_b_2`).
//!    Enum values that collide are spelled with `+` as `plus` and a sign `-` as `minus`
//!    before the same suffix rule (`reactions-+1` → `ReactionsPlus1`, `ok` beside `Ok` →
//!    `Ok2`).

mod allocator;
mod case;
mod item_names;
mod reserved;
#[cfg(test)]
mod tests;

pub use allocator::NameAllocator;
pub use case::{snake_case, transliterate, type_name, typify_sanitize, upper_camel, Case};
pub use item_names::{
    field_names, primitive_names, tool_names, PrimitiveKind, PrimitiveNames, ToolNames,
};
pub use reserved::{is_keyword, RESERVED_METHODS, RESERVED_TRAITS, RESERVED_TYPES};
