//! Validator verdicts, table-driven.
//!
//! - The repository's own cases (`tests/conformance/`, written for this project, always
//!   run): each file gets the verdict of its folder, and exactly the rule ids and JSON
//!   pointers [`CASES`] lists for it; together they exercise every rule family of
//!   `mcpdesc_codegen::rules`.
//! - The reference validator's fixture corpus (`../shared/conformance/fixtures-0.8.0-rc.1`,
//!   the larger check on top, when the shared corpus is there: `tests/prereq.rs`): each
//!   file gets the verdict of its folder.
//!
//! Verdicts: `expected-valid` no errors and no warnings; `expected-warning` no errors,
//! at least one warning; `expected-invalid` at least one error. Each test prints a
//! per-file table and fails on any mismatch.

#[path = "../prereq.rs"]
mod prereq;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mcpdesc_codegen::rules::*;
use mcpdesc_codegen::{Description, Limits};

const FOLDERS: [&str; 3] = ["expected-valid", "expected-warning", "expected-invalid"];

/// One in-repo case: a file under `tests/conformance/` and every diagnostic it must get,
/// as (rule id, JSON pointer) pairs; no other diagnostic may appear.
struct Case {
    file: &'static str,
    expect: &'static [(&'static str, &'static str)],
}

const fn case(file: &'static str, expect: &'static [(&'static str, &'static str)]) -> Case {
    Case { file, expect }
}

/// Rule ids no in-repo case needs to carry, and why.
const NOT_FROM_THE_VALIDATOR: [(&str, &str); 4] = [
    (
        CODEGEN,
        "reported by the generator (tests/tests/generate.rs, cli_generate.rs)",
    ),
    (
        MIGRATE,
        "reported by `mcpdesc migrate` (tests/tests/migrate.rs)",
    ),
    (
        PULL,
        "reported by `mcpdesc pull` (mcpdesc-cli/tests/pull.rs)",
    ),
    (
        TOOL_SCHEMA_KEYWORDS_PRESERVE,
        "a guarantee, not a diagnostic: keywords are kept, never rejected",
    ),
];

const CASES: &[Case] = &[
    case("expected-valid/bookshelf.json", &[]),
    case("expected-valid/client-requirements.json", &[]),
    case("expected-valid/extensions-and-meta.json", &[]),
    case("expected-valid/interaction-examples.json", &[]),
    case("expected-valid/minimal.json", &[]),
    case("expected-valid/resources-prompts-completions.json", &[]),
    case("expected-valid/yaml-rendering.json", &[]),
    case("expected-valid/yaml-rendering.yaml", &[]),
    case(
        "expected-warning/completion-capability-not-declared.json",
        &[(COMPLETION_EXAMPLES, "/prompts/0/completionExamples")],
    ),
    case(
        "expected-warning/component-ref-inside-schema.json",
        &[(
            COMPONENTS_REFERENCES,
            "/tools/0/inputSchema/properties/address/$componentRef",
        )],
    ),
    case(
        "expected-warning/deprecated-client-requirement.json",
        &[(CLIENT_REQUIREMENTS, "/tools/0/clientRequirements/sampling")],
    ),
    case(
        "expected-warning/external-schema-reference.json",
        &[
            (
                TOOL_SCHEMA_VALID,
                "/tools/0/inputSchema/properties/isbn/$ref",
            ),
            (
                TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
                "/tools/0/examples/dune/input",
            ),
        ],
    ),
    case(
        "expected-warning/interaction-requirements-contradiction.json",
        &[(
            TOOL_INTERACTION_CLIENT_REQUIREMENTS,
            "/tools/0/interactionExamples/check/steps/0",
        )],
    ),
    case(
        "expected-warning/legacy-protocol-version.json",
        &[(PROTOCOL_VERSIONS, "/protocolVersions")],
    ),
    case(
        "expected-warning/logging-in-2026.json",
        &[(CAPABILITIES, "/capabilities/0/logging")],
    ),
    case(
        "expected-warning/native-tool-shape.json",
        &[
            (TOOL_SCHEMA_NATIVE_SHAPE, "/tools/0/inputSchema"),
            (
                TOOL_SCHEMA_NATIVE_SHAPE,
                "/tools/0/inputSchema/properties/any",
            ),
        ],
    ),
    case(
        "expected-warning/reserved-extension-identifier.json",
        &[(
            EXTENSIONS,
            "/capabilities/0/extensions/io.modelcontextprotocol~1shelf-sync",
        )],
    ),
    case(
        "expected-warning/resource-example-consistency.json",
        &[
            (
                RESOURCES,
                "/resources/0/examples/mismatched/result/contents/0",
            ),
            (
                RESOURCES,
                "/resources/0/examples/mismatched/result/contents/0/mimeType",
            ),
            (RESOURCES, "/resources/1/examples/elsewhere/result/contents"),
        ],
    ),
    case(
        "expected-warning/sse-transport-for-modern-version.json",
        &[
            (PROTOCOL_VERSIONS, "/protocolVersions"),
            (TRANSPORTS, "/transports/0/type"),
        ],
    ),
    case(
        "expected-warning/uncatalogued-oauth-scope.json",
        &[(SECURITY, "/tools/0/security/0/books-oauth/0")],
    ),
    case(
        "expected-warning/unknown-reserved-meta-key.json",
        &[(META, "/tools/0/_meta/io.modelcontextprotocol~1shelf-hint")],
    ),
    case(
        "expected-invalid/client-requirement-version.json",
        &[(CLIENT_REQUIREMENTS, "/tools/0/clientRequirements/tasks")],
    ),
    case(
        "expected-invalid/closed-interactions-0.8.json",
        &[
            (
                INPUT_RESPONSE_CLOSED,
                "/tools/0/interactionExamples/with-meta/steps/0/response/_meta",
            ),
            (
                ROOT_META_PROTOCOL_VERSION,
                "/tools/0/interactionExamples/with-meta/steps/1/response/roots/0/_meta",
            ),
        ],
    ),
    case(
        "expected-invalid/completion-examples.json",
        &[
            (PROTOCOL_VERSIONS, "/protocolVersions"),
            (
                COMPLETION_EXAMPLES,
                "/prompts/0/completionExamples/early-context/context",
            ),
            (
                COMPLETION_EXAMPLES,
                "/prompts/1/completionExamples/unknown/argument/name",
            ),
            (
                COMPLETION_EXAMPLES,
                "/prompts/1/completionExamples/unknown/context/arguments/genre",
            ),
        ],
    ),
    case(
        "expected-invalid/component-reference.json",
        &[(
            COMPONENTS_REFERENCES,
            "/tools/0/examples/gone/$componentRef",
        )],
    ),
    case(
        "expected-invalid/content-block-version.json",
        &[
            (PROTOCOL_VERSIONS, "/protocolVersions"),
            (
                CONTENT_BLOCK_PROTOCOL_VERSION,
                "/tools/0/examples/link/result/content/0/type",
            ),
        ],
    ),
    case(
        "expected-invalid/document-shape.json",
        &[
            (DOCUMENT_SCHEMA, "/tools/0/title"),
            (DOCUMENT_SCHEMA, "/maintainer"),
        ],
    ),
    case(
        "expected-invalid/elicitation-declarations.json",
        &[
            (ELICITATION_DECLARATIONS, "/tools/0/elicitations/1/name"),
            (
                ELICITATION_DECLARATIONS,
                "/tools/0/elicitations/2/requestedSchema/properties/genre/default",
            ),
            (
                ELICITATION_DECLARATIONS,
                "/tools/0/elicitations/2/requestedSchema/properties/pages/minimum",
            ),
            (
                ELICITATION_DECLARATIONS,
                "/tools/0/elicitations/2/requestedSchema/required/0",
            ),
        ],
    ),
    case(
        "expected-invalid/elicitation-version.json",
        &[(ELICITATION_PROTOCOL_VERSION, "/tools/0/elicitations/0/mode")],
    ),
    case(
        "expected-invalid/empty-collections.json",
        &[
            (DOCUMENT_SCHEMA, "/tools/0/tags"),
            (DOCUMENT_SCHEMA, "/tags"),
        ],
    ),
    case(
        "expected-invalid/example-after.json",
        &[
            (EXTENSIONS, "/tools/1/examples/a/x-mcpdesc-after"),
            (EXTENSIONS, "/tools/1/examples/b/x-mcpdesc-after/1"),
        ],
    ),
    case(
        "expected-invalid/extension-identifier.json",
        &[(
            DOCUMENT_SCHEMA,
            "/capabilities/0/extensions/not an identifier",
        )],
    ),
    case(
        "expected-invalid/field-version.json",
        &[(DECLARATION_FIELD_PROTOCOL_VERSION, "/tools/0/execution")],
    ),
    case(
        "expected-invalid/interaction-members.json",
        &[(
            TOOL_INTERACTION_MEMBERS,
            "/tools/0/interactionExamples/no-steps",
        )],
    ),
    case(
        "expected-invalid/interaction-steps.json",
        &[
            (
                TOOL_INTERACTION_ELICITATION,
                "/tools/0/interactionExamples/broken/steps/0/declaration",
            ),
            (
                TOOL_INTERACTION_ELICITATION,
                "/tools/0/interactionExamples/broken/steps/1/response/content/confirm",
            ),
            (
                TOOL_INTERACTION_MEMBERS,
                "/tools/0/interactionExamples/broken/steps/1/response/reason",
            ),
            (
                SAMPLING_TOOLS_PROTOCOL_VERSION,
                "/tools/0/interactionExamples/broken/steps/2/request/tools",
            ),
            (
                TOOL_INTERACTION_MEMBERS,
                "/tools/0/interactionExamples/broken/steps/3/request/messages/0/name",
            ),
            (
                ROOT_URI_FILE_SCHEME,
                "/tools/0/interactionExamples/broken/steps/4/response/roots/0/uri",
            ),
            (
                INTERACTION_MESSAGE_MEMBERS,
                "/tools/0/interactionExamples/broken/steps/5/response/content/type",
            ),
        ],
    ),
    case(
        "expected-invalid/invalid-tool-schema.json",
        &[
            (
                TOOL_SCHEMA_VALID,
                "/tools/0/inputSchema/properties/title/type",
            ),
            (TOOL_SCHEMA_VALID, "/tools/0/inputSchema/required"),
        ],
    ),
    case(
        "expected-invalid/json-duplicate-key.json",
        &[(SERIALIZATION, "/protocolVersions")],
    ),
    case("expected-invalid/json-syntax.json", &[(SERIALIZATION, "")]),
    case(
        "expected-invalid/legacy-tool-schema-shape.json",
        &[
            (PROTOCOL_VERSIONS, "/protocolVersions"),
            (TOOL_SCHEMA_LEGACY_SHAPE, "/tools/0/inputSchema/required"),
        ],
    ),
    case(
        "expected-invalid/mcpdesc-version.json",
        &[(DOCUMENT_VERSION, "/mcpdesc")],
    ),
    case(
        "expected-invalid/meta-reserved-values.json",
        &[
            (META, "/tools/0/_meta/progressToken"),
            (META, "/tools/0/examples/x/result/_meta/traceparent"),
        ],
    ),
    case(
        "expected-invalid/overlapping-capabilities.json",
        &[(CAPABILITIES, "/capabilities/1/protocolVersions")],
    ),
    case(
        "expected-invalid/overlapping-declarations.json",
        &[(PROTOCOL_SCOPE_CONSISTENCY, "/tools/1")],
    ),
    case(
        "expected-invalid/prompt-examples.json",
        &[
            (PROMPTS, "/prompts/0/examples/wrong-args/arguments/reader"),
            (PROMPTS, "/prompts/0/examples/wrong-args/arguments/genre"),
        ],
    ),
    case(
        "expected-invalid/resource-examples.json",
        &[
            (
                RESOURCES,
                "/resources/0/examples/bad-blob/result/contents/0/blob",
            ),
            (
                EXAMPLE_RESULT_FIDELITY,
                "/resources/0/examples/cached/result/ttlMs",
            ),
        ],
    ),
    case(
        "expected-invalid/resource-templates.json",
        &[
            (RESOURCE_TEMPLATES, "/resourceTemplates/0/uriTemplate"),
            (
                RESOURCE_TEMPLATES,
                "/resourceTemplates/1/examples/elsewhere/uri",
            ),
        ],
    ),
    case(
        "expected-invalid/result-fidelity.json",
        &[
            (EXAMPLE_RESULT_FIDELITY, "/tools/0/examples/plain/result"),
            (
                EXAMPLE_RESULT_FIDELITY,
                "/prompts/0/examples/typed/result/resultType",
            ),
        ],
    ),
    case(
        "expected-invalid/scope-outside-root.json",
        &[(PROTOCOL_SCOPE_CONSISTENCY, "/tools/0/protocolVersions")],
    ),
    case(
        "expected-invalid/security-references.json",
        &[
            (SECURITY, "/security/0/key"),
            (SECURITY, "/tools/0/security/0/missing-scheme"),
        ],
    ),
    case(
        "expected-invalid/tag-references.json",
        &[
            (TAGS_REFERENCES, "/tags/1/name"),
            (TAGS_REFERENCES, "/tools/0/tags/0"),
        ],
    ),
    case(
        "expected-invalid/tool-annotations.json",
        &[(TOOL_ANNOTATIONS_MEMBERS, "/tools/0/annotations/cachedHint")],
    ),
    case(
        "expected-invalid/tool-example-members.json",
        &[
            (EXAMPLE_MEMBERS, "/tools/0/examples/no-result"),
            (EXAMPLE_MEMBERS, "/tools/0/examples/Bad Name!"),
        ],
    ),
    case(
        "expected-invalid/tool-example-result-form.json",
        &[
            (
                EXAMPLE_COMPLETED_FORM,
                "/tools/0/examples/envelope/result/jsonrpc",
            ),
            (
                EXAMPLE_COMPLETED_FORM,
                "/tools/0/examples/envelope/result/id",
            ),
            (EXAMPLE_COMPLETED_FORM, "/tools/0/examples/task/result/task"),
            (
                EXAMPLE_RESULT_MEMBERS,
                "/tools/0/examples/list-structured/result/structuredContent",
            ),
        ],
    ),
    case(
        "expected-invalid/tool-example-schema.json",
        &[
            (
                TOOL_EXAMPLE_SCHEMA_CONFORMANCE,
                "/tools/0/examples/wrong-input/input/title",
            ),
            (
                TOOL_STRUCTURED_CONTENT_OUTPUT_SCHEMA,
                "/tools/0/examples/wrong-output/result/structuredContent/copies",
            ),
            (
                TOOL_STRUCTURED_CONTENT_OUTPUT_SCHEMA,
                "/tools/0/examples/no-structured/result",
            ),
            (
                TOOL_EXAMPLE_ERROR_RESULT,
                "/tools/0/examples/structured-error/result/structuredContent",
            ),
        ],
    ),
    case(
        "expected-invalid/tool-members.json",
        &[
            (TOOL_MEMBERS, "/tools/0"),
            (TOOL_MEMBERS, "/tools/1/timeout"),
        ],
    ),
    case(
        "expected-invalid/tool-schema-dialect.json",
        &[(TOOL_SCHEMA_VALID, "/tools/0/inputSchema/$schema")],
    ),
    case(
        "expected-invalid/tool-schema-roots.json",
        &[
            (TOOL_INPUT_SCHEMA_OBJECT_ROOT, "/tools/0/inputSchema/type"),
            (TOOL_OUTPUT_SCHEMA_OBJECT_ROOT, "/tools/1/outputSchema/type"),
        ],
    ),
    case(
        "expected-invalid/transport-coverage-gap.json",
        &[(TRANSPORTS, "/transports")],
    ),
    case(
        "expected-invalid/transport-version.json",
        &[
            (PROTOCOL_VERSIONS, "/protocolVersions"),
            (TRANSPORTS, "/transports/0/type"),
        ],
    ),
    case(
        "expected-invalid/unknown-protocol-version.json",
        &[(DOCUMENT_SCHEMA, "/protocolVersions/0")],
    ),
    case(
        "expected-invalid/x-mcp-header.json",
        &[(
            TOOL_INPUT_SCHEMA_X_MCP_HEADER,
            "/tools/0/inputSchema/properties/title/x-mcp-header",
        )],
    ),
    case(
        "expected-invalid/yaml-anchor-alias.yaml",
        &[(SERIALIZATION, "/protocolVersions")],
    ),
    case(
        "expected-invalid/yaml-custom-tag.yaml",
        &[(SERIALIZATION, "/info/version")],
    ),
    case(
        "expected-invalid/yaml-duplicate-key.yaml",
        &[(SERIALIZATION, "/info/name")],
    ),
    case(
        "expected-invalid/yaml-multiple-documents.yaml",
        &[(SERIALIZATION, "")],
    ),
    case(
        "expected-invalid/yaml-non-finite-number.yaml",
        &[(
            SERIALIZATION,
            "/tools/0/inputSchema/properties/limit/maximum",
        )],
    ),
];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The verdict of a loaded description, by its diagnostics.
fn verdict(desc: &Description) -> &'static str {
    match (desc.errors().count(), desc.warnings().count()) {
        (0, 0) => "expected-valid",
        (0, _) => "expected-warning",
        _ => "expected-invalid",
    }
}

/// Checks the verdict of every file of the three folders under `root`, plus what
/// `extra` says about each file (a problem in words, or `None`); prints the table and
/// returns the number of files and the mismatches.
fn run_folders(
    root: &Path,
    extra: impl Fn(&str, &Description) -> Option<String>,
) -> (usize, Vec<String>) {
    let mut table = String::new();
    let mut mismatches = Vec::new();
    let mut total = 0;
    for folder in FOLDERS {
        for file in files(&root.join(folder)) {
            total += 1;
            let desc = Description::from_path(&file, &Limits::default()).unwrap();
            let got = verdict(&desc);
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let mut problems = Vec::new();
            if got != folder {
                problems.push(format!("got {got}"));
            }
            // A document without errors must also convert into the typed model.
            if desc.errors().count() == 0 && desc.document().is_none() {
                problems.push("the typed model failed".to_owned());
            }
            // Every diagnostic is located in the source.
            if let Some(d) = desc
                .diagnostics
                .iter()
                .find(|d| d.line == 0 || d.column == 0)
            {
                problems.push(format!("{} at {} has no line/column", d.rule, d.pointer));
            }
            problems.extend(extra(&format!("{folder}/{name}"), &desc));
            table.push_str(&format!(
                "{:<4} {:<17} {:<62} errors={} warnings={}\n",
                if problems.is_empty() { "ok" } else { "FAIL" },
                folder,
                name,
                desc.errors().count(),
                desc.warnings().count(),
            ));
            if !problems.is_empty() {
                mismatches.push(format!(
                    "{folder}/{name}: {}\n{}",
                    problems.join("; "),
                    desc.render_diagnostics()
                ));
            }
        }
    }
    println!("{table}");
    println!("agreement: {}/{total}", total - mismatches.len());
    (total, mismatches)
}

#[test]
fn in_repo_cases_get_their_verdicts_rules_and_pointers() {
    let listed: BTreeSet<&str> = CASES.iter().map(|c| c.file).collect();
    assert_eq!(listed.len(), CASES.len(), "a file is listed twice in CASES");
    let mut on_disk = BTreeSet::new();
    for folder in FOLDERS {
        for file in files(&cases_dir().join(folder)) {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            on_disk.insert(format!("{folder}/{name}"));
        }
    }
    let on_disk: BTreeSet<&str> = on_disk.iter().map(String::as_str).collect();
    assert_eq!(
        listed, on_disk,
        "CASES and the files under tests/conformance/ differ"
    );

    let (total, mismatches) = run_folders(&cases_dir(), |file, desc| {
        let case = CASES.iter().find(|c| c.file == file)?;
        let want: BTreeSet<(&str, &str)> = case.expect.iter().copied().collect();
        let got: BTreeSet<(&str, &str)> = desc
            .diagnostics
            .iter()
            .map(|d| (d.rule, d.pointer.as_str()))
            .collect();
        let missing: Vec<_> = want.difference(&got).collect();
        let unexpected: Vec<_> = got.difference(&want).collect();
        (!missing.is_empty() || !unexpected.is_empty())
            .then(|| format!("missing {missing:?}, unexpected {unexpected:?}"))
    });
    assert!(
        mismatches.is_empty(),
        "{} of {total} in-repo cases disagree:\n\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// Every rule id of `mcpdesc_codegen::rules` is carried by some in-repo case (or is
/// named in [`NOT_FROM_THE_VALIDATOR`]), so a fresh clone exercises every family. The
/// ids are read from the source, so a new rule without a case fails here.
#[test]
fn in_repo_cases_cover_every_rule_family() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcpdesc-description/src/rules.rs");
    let text = std::fs::read_to_string(&source).unwrap();
    let mut ids = BTreeSet::new();
    for item in text.split("pub const ").skip(1) {
        let value = item.split('"').nth(1).expect("a string constant");
        ids.insert(value.to_owned());
    }
    assert!(ids.len() > 40, "only {} rule ids read", ids.len());
    let covered: BTreeSet<&str> = CASES
        .iter()
        .flat_map(|c| c.expect.iter().map(|(rule, _)| *rule))
        .chain(NOT_FROM_THE_VALIDATOR.iter().map(|(rule, _)| *rule))
        .collect();
    let uncovered: Vec<&String> = ids
        .iter()
        .filter(|id| !covered.contains(id.as_str()))
        .collect();
    assert!(
        uncovered.is_empty(),
        "no case under tests/conformance/ carries {uncovered:?}"
    );
}

#[test]
fn shared_fixture_verdicts_match_their_folders() {
    let Some(shared) = prereq::shared_conformance(
        "mcpdesc-tests/conformance::shared_fixture_verdicts_match_their_folders",
    ) else {
        return;
    };
    let (total, mismatches) = run_folders(&shared.join("fixtures-0.8.0-rc.1"), |_, _| None);
    assert!(
        mismatches.is_empty(),
        "{} of {total} fixtures disagree:\n\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
