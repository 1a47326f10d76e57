//! The page of every description: the chess snapshot, every description of the
//! repository and of the shared real-world corpus renders (well-formed, deterministic,
//! each item at its anchor), per protocol version too.

#[path = "../../tests/prereq.rs"]
mod prereq;

mod support;

use std::path::{Path, PathBuf};

use mcpdesc_description::view;
use mcpdesc_docs::{render, DocsError, Options};
use support::{assert_well_formed, load, repo};

#[test]
fn chess_page_snapshot() {
    let desc = load(&repo().join("examples/chess/chess.mcpdesc.json"));
    let page = render(&desc, &Options::default()).unwrap();
    expectorate::assert_contents("tests/snapshots/chess.html", &page);
}

/// A description with protocol-scoped variants: one block per version, newest first,
/// and the switcher.
#[test]
fn scoped_page_snapshot() {
    let desc = load(&repo().join("tests/diff/protocol-scoped-variants/new.mcpdesc.json"));
    let page = render(&desc, &Options::default()).unwrap();
    assert!(page.contains("<select id=\"version-switch\""));
    let newest = page.find("data-version=\"2026-07-28\"").unwrap();
    let older = page.find("data-version=\"2025-11-25\"").unwrap();
    assert!(newest < older);
    expectorate::assert_contents("tests/snapshots/scoped.html", &page);
}

/// Every description file of the repository (`*.mcpdesc.json|yaml|yml` anywhere, and
/// the validator's own valid and warning cases): a valid one renders, whole and per
/// protocol version; an invalid one is refused.
#[test]
fn every_in_repo_description_renders() {
    let root = repo();
    let mut files = Vec::new();
    walk(&root, false, &mut files);
    for folder in ["expected-valid", "expected-warning", "expected-invalid"] {
        let mut cases = Vec::new();
        walk(
            &root.join("tests/conformance").join(folder),
            true,
            &mut cases,
        );
        files.extend(cases.into_iter().filter(|p| {
            p.extension()
                .is_some_and(|e| e == "json" || e == "yaml" || e == "yml")
        }));
    }
    files.sort();
    files.dedup();
    let (mut rendered, mut refused) = (0, 0);
    for file in &files {
        if render_all_ways(file) {
            rendered += 1;
        } else {
            refused += 1;
        }
    }
    println!(
        "rendered {rendered}, refused {refused} invalid, of {}",
        files.len()
    );
    // The repository has well over a hundred valid descriptions (diff pairs, hostile
    // schemas, fixtures, examples): a walk that finds few is broken.
    assert!(rendered > 100, "only {rendered} descriptions rendered");
    assert!(refused > 0, "no invalid description was seen");
}

/// Every shared real-world description is valid and renders, each tool at its anchor
/// with its examples.
#[test]
fn every_shared_real_world_description_renders() {
    let Some(conformance) = prereq::shared_conformance(
        "mcpdesc-docs/render::every_shared_real_world_description_renders",
    ) else {
        return;
    };
    let mut files = Vec::new();
    walk(&conformance.join("real-world"), true, &mut files);
    assert!(!files.is_empty());
    for file in &files {
        assert!(render_all_ways(file), "{}: invalid", file.display());
        let desc = load(file);
        let page = render(&desc, &Options::default()).unwrap();
        for tool in desc.document().unwrap().tools.iter().flatten() {
            let id = mcpdesc_docs::html::anchor("tool", &tool.name);
            assert!(
                page.contains(&format!("id=\"{id}\"")),
                "{}: {id}",
                file.display()
            );
            for example in tool.examples.iter().flatten().map(|(name, _)| name) {
                let ex = mcpdesc_docs::html::anchor(&format!("{id}:example"), example);
                assert!(
                    page.contains(&format!("id=\"{ex}\"")),
                    "{}: {ex}",
                    file.display()
                );
            }
        }
    }
    println!("rendered {} real-world descriptions", files.len());
}

#[test]
fn unknown_version_and_invalid_description_are_refused() {
    let desc = load(&repo().join("examples/chess/chess.mcpdesc.json"));
    let v = mcpdesc_description::ProtocolVersion::parse("2024-11-05").unwrap();
    let e = render(
        &desc,
        &Options {
            protocol_version: Some(v),
        },
    )
    .unwrap_err();
    assert!(matches!(
        e,
        DocsError::View(view::ViewError::UnknownVersion { .. })
    ));
    let bad = mcpdesc_description::Description::from_text(
        "bad",
        "{\"mcpdesc\": \"0.9.0\"}".to_owned(),
        None,
        &Default::default(),
    );
    assert!(matches!(
        render(&bad, &Options::default()),
        Err(DocsError::Invalid { .. })
    ));
}

/// Renders `file` every way (whole, and per root version), checking each page; `false`
/// when the description is invalid (and refused).
fn render_all_ways(file: &Path) -> bool {
    let desc = load(file);
    let name = file.display().to_string();
    if !desc.is_valid() {
        assert!(
            matches!(
                render(&desc, &Options::default()),
                Err(DocsError::Invalid { .. })
            ),
            "{name}: an invalid description rendered"
        );
        return false;
    }
    let page = render(&desc, &Options::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_well_formed(&page, &name);
    let again = render(&load(file), &Options::default()).unwrap();
    assert!(page == again, "{name}: two renderings differ");
    let doc = desc.document().unwrap();
    for v in view::root_versions(doc).iter() {
        let one = render(
            &desc,
            &Options {
                protocol_version: Some(v),
            },
        )
        .unwrap_or_else(|e| panic!("{name} at {v}: {e}"));
        assert_well_formed(&one, &format!("{name} at {v}"));
    }
    true
}

/// Description files (`*.mcpdesc.*`, or every file with `all`) under `dir`, skipping
/// build output and dependencies.
fn walk(dir: &Path, all: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | ".git") {
                walk(&p, all, out);
            }
        } else if all
            || name.contains(".mcpdesc.")
                && (name.ends_with(".json") || name.ends_with(".yaml") || name.ends_with(".yml"))
        {
            out.push(p);
        }
    }
}

/// A six-level nested output schema: a property tree of folds (`<details>`), no
/// tables, each level one list deeper; identifiers carry their break opportunities;
/// `_meta` is shown per tool, prompt and resource, the MCP Apps UI as a link to the
/// resource's entry (or as text when the page does not describe it).
#[test]
fn deep_schema_is_a_property_tree_and_meta_is_shown() {
    let desc = load(&repo().join("mcpdesc-docs/tests/fixtures/deep.mcpdesc.json"));
    let page = render(&desc, &Options::default()).unwrap();
    assert_well_formed(&page, "deep");
    assert!(!page.contains("<table class=\"schema\""), "a schema table");
    let section = |id: &str| {
        let at = page.find(&format!("id=\"{id}\"")).unwrap();
        &page[at..at + page[at..].find("</section>").unwrap()]
    };
    let tool = section("tool-get_weather_report");
    let output = &tool[tool.find("<h4>Output</h4>").unwrap()..];
    // From the output's tree to the deepest leaf: the report and six levels, each a
    // list inside the fold of its parent.
    let deepest = "<code class=\"ident\">barometric<wbr>Pressure<wbr>Sensor<wbr>Reading_<wbr>normalized<wbr>To<wbr>Sea<wbr>Level</code>";
    let leaf = output.find(deepest).expect("the deepest identifier");
    let before = &output[..leaf];
    let depth = before.matches("<ul class=\"tree\">").count() - before.matches("</ul>").count();
    assert_eq!(depth, 7, "lists around the deepest leaf");
    let folds = before.matches("<details").count() - before.matches("</details>").count();
    assert_eq!(folds, 6, "folds around the deepest leaf");
    // The first level is open, deeper ones start folded.
    assert!(output.contains("<li><details open><summary><code class=\"ident\">weather<wbr>Observation<wbr>Report</code> <span class=\"type\">object</span> <b class=\"req\">required</b></summary>"));
    assert!(output.contains("<li><details><summary><code class=\"ident\">observation<wbr>Station<wbr>Network_<wbr>regional<wbr>Subdivision</code>"));
    // The heading's name is an identifier too.
    assert!(tool.contains("<h3><code class=\"ident\">get_<wbr>weather_<wbr>report</code>"));
    // `_meta`: the UI link, and every member.
    assert!(
        tool.contains("<p class=\"ui-resource\">UI (MCP Apps): <a href=\"#resource-ui%3A%2F%2Fdeep-weather%2Freport.html\"><code>ui://deep-weather/report.html</code></a></p>"),
        "{tool}"
    );
    assert!(page.contains("id=\"resource-ui%3A%2F%2Fdeep-weather%2Freport.html\""));
    assert!(tool.contains("<dt><code class=\"ident\">io.example/owner</code></dt><dd><code>&quot;weather-team&quot;</code></dd>"), "{tool}");
    let external = section("tool-get_external_widget");
    assert!(external.contains(
        "<code>ui://elsewhere/widget.html</code> <span class=\"muted\">(not a resource of this description)</span>"
    ));
    assert!(section("prompt-summarize_report").contains("&quot;forecasters&quot;"));
    let resource = section("resource-ui%3A%2F%2Fdeep-weather%2Freport.html");
    assert!(resource.contains("<h4>Metadata <code>_meta</code></h4>"));
    assert!(resource.contains("&quot;prefersBorder&quot;: true"));
    // Deterministic.
    assert_eq!(page, render(&desc, &Options::default()).unwrap());
}
