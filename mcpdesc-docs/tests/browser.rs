//! The pages in a real browser: headless Chromium (Debian's `chromium`, installed by
//! `.ci/setup.d/40-chromium.sh`) loads each page from a file, runs its script under
//! its own Content-Security-Policy, and dumps the resulting DOM; its log on stderr
//! carries every console message (`INFO:CONSOLE`), errors and CSP violations included.
//! The page's script logs nothing, so any console line is a failure. The controls are
//! used through the DevTools protocol (`support/cdp.rs`): the switcher, the filter.

#[path = "../../tests/prereq.rs"]
mod prereq;

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mcpdesc_docs::{render, Options};
use support::{load, repo};

/// Chromium, or `None` (with a notice) where it is not installed.
fn chromium(test: &str) -> Option<PathBuf> {
    prereq::program(
        &format!("mcpdesc-docs/browser::{test}"),
        &["chromium", "chromium-browser"],
        &["--headless", "--no-sandbox", "--version"],
        "install Debian's chromium: apt-get install chromium (.ci/setup.d/40-chromium.sh)",
    )
}

/// Chromium and the page of `description` in a scratch folder, or `None` (skipped)
/// without Chromium.
fn setup(test: &str, description: &str) -> Option<(PathBuf, PathBuf)> {
    let browser = chromium(test)?;
    Some((browser, page_file(description, &Options::default())))
}

/// Loads a page that must log nothing on the console.
fn open_quiet(browser: &Path, file: &Path, fragment: &str) -> Loaded {
    let loaded = open(browser, file, fragment, &[]);
    assert!(
        loaded.console.is_empty(),
        "{fragment}: console: {:#?}",
        loaded.console
    );
    loaded
}

/// The page in a browser driven over the DevTools protocol, once its script ran.
fn drive(chromium: &Path, file: &Path, profile: &Path) -> support::cdp::Browser {
    let mut page =
        support::cdp::Browser::open(chromium, profile, &format!("file://{}", file.display()));
    page.wait_for("document.documentElement?.dataset.js === 'ready'");
    page
}

/// A scratch folder of this test process.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "mcpdesc-docs-browser-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes the page of a description into a scratch folder; its path.
fn page_file(description: &str, options: &Options) -> PathBuf {
    let desc = load(&repo().join(description));
    let page = render(&desc, options).unwrap();
    let dir = scratch("page");
    let file = dir.join("page.html");
    std::fs::write(&file, page).unwrap();
    file
}

/// What the browser made of a page.
struct Loaded {
    /// The DOM after the script ran.
    dom: String,
    /// Every console message (the log lines with `:CONSOLE`).
    console: Vec<String>,
}

/// Loads `file` (with `fragment`) in a fresh headless Chromium profile; `extra` flags
/// on top of the sandboxed, offline, headless ones.
fn open(browser: &Path, file: &Path, fragment: &str, extra: &[&str]) -> Loaded {
    let profile = scratch("profile");
    let out = profile.join("dom.html");
    let log = profile.join("log.txt");
    let url = format!("file://{}{fragment}", file.display());
    let mut child = Command::new(browser)
        .args(support::CHROMIUM_FLAGS)
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(format!(
            "--user-data-dir={}",
            profile.join("data").display()
        ))
        .args(extra)
        .args(["--dump-dom", &url])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish loading {url} within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let dom = std::fs::read_to_string(&out).unwrap();
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        status.success(),
        "chromium failed on {url}: {status}\n{log}"
    );
    let _ = std::fs::remove_dir_all(&profile);
    let console = log
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    Loaded { dom, console }
}

/// Whether the element that opens with `opening` (an exact prefix such as
/// `<section class="version" id="version-2025-11-25"`) is hidden in the DOM.
#[track_caller]
fn hidden(dom: &str, opening: &str) -> bool {
    let Some(at) = dom.find(opening) else {
        panic!("no {opening} in the DOM:\n{dom}");
    };
    let tag = &dom[at..at + dom[at..].find('>').unwrap()];
    tag.contains(" hidden")
}

const CHESS: &str = "examples/chess/chess.mcpdesc.json";
const SCOPED: &str = "tests/diff/protocol-scoped-variants/new.mcpdesc.json";
const DEEP: &str = "mcpdesc-docs/tests/fixtures/deep.mcpdesc.json";

#[test]
fn chess_page_shows_every_tool_and_example_without_console_errors() {
    let test = "chess_page_shows_every_tool_and_example_without_console_errors";
    let Some((browser, file)) = setup(test, CHESS) else {
        return;
    };
    let loaded = open_quiet(&browser, &file, "");
    // The script ran: the CSP let it (its hash matches) and it finished.
    assert!(loaded.dom.contains("data-js=\"ready\""), "{}", loaded.dom);
    // The filter field is shown once the script runs.
    assert!(!hidden(&loaded.dom, "<input type=\"search\" id=\"filter\""));
    let desc = load(&repo().join(CHESS));
    for tool in desc.document().unwrap().tools.iter().flatten() {
        let id = mcpdesc_docs::html::anchor("tool", &tool.name);
        assert!(
            loaded.dom.contains(&format!("id=\"{id}\"")),
            "no section {id}"
        );
        assert!(
            loaded.dom.contains(&format!("href=\"#{id}\"")),
            "no sidebar link {id}"
        );
        for name in tool.examples.iter().flatten().map(|(n, _)| n) {
            let ex = mcpdesc_docs::html::anchor(&format!("{id}:example"), name);
            assert!(
                loaded.dom.contains(&format!("id=\"{ex}\"")),
                "no example {ex}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn version_switcher_shows_one_version_at_a_time() {
    let Some((browser, file)) = setup("version_switcher_shows_one_version_at_a_time", SCOPED)
    else {
        return;
    };
    let newest = "<section class=\"version\" id=\"version-2026-07-28\"";
    let older = "<section class=\"version\" id=\"version-2025-11-25\"";
    // By default the newest version, its sidebar too.
    let loaded = open_quiet(&browser, &file, "");
    assert!(!hidden(&loaded.dom, newest) && hidden(&loaded.dom, older));
    let older_toc = "<div class=\"toc\" data-version=\"2025-11-25\"";
    assert!(hidden(&loaded.dom, older_toc));
    assert!(!hidden(&loaded.dom, "<select id=\"version-switch\""));
    // A link into another version switches to it: the version's anchor, or an item's.
    for fragment in ["#version-2025-11-25", "#v2025-11-25-tool-run"] {
        let loaded = open_quiet(&browser, &file, fragment);
        assert!(
            hidden(&loaded.dom, newest) && !hidden(&loaded.dom, older),
            "{fragment} did not switch"
        );
    }
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

#[test]
fn hostile_page_stays_inert_in_the_browser() {
    let hostile = "mcpdesc-docs/tests/fixtures/hostile.mcpdesc.json";
    let Some((browser, file)) = setup("hostile_page_stays_inert_in_the_browser", hostile) else {
        return;
    };
    let loaded = open_quiet(&browser, &file, "");
    assert!(loaded.dom.contains("data-js=\"ready\""));
    // Nothing of the payload became an element.
    // (The DOM's serialization escapes `<` in text, not quotes: `id="pwn"` may be text.)
    assert!(!loaded.dom.contains("<b id=\"pwn\""));
    assert!(!loaded.dom.contains("<img"));
    assert_eq!(loaded.dom.matches("<script").count(), 1);
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// The control, and the page without JavaScript: a page whose script differs from the
/// one the policy hashes is blocked and the browser reports it on the console (so the
/// checks above can fail), and the page is still whole: every version shown, the
/// controls that need the script still hidden.
#[test]
fn a_script_the_policy_does_not_allow_is_blocked_and_the_page_still_reads() {
    let test = "a_script_the_policy_does_not_allow_is_blocked_and_the_page_still_reads";
    let Some((browser, file)) = setup(test, SCOPED) else {
        return;
    };
    let page = std::fs::read_to_string(&file).unwrap();
    let tampered = page.replacen("\"use strict\";", "\"use strict\"; ", 1);
    std::fs::write(&file, tampered).unwrap();
    let loaded = open(&browser, &file, "", &[]);
    assert!(!loaded.dom.contains("data-js=\"ready\""));
    let blocked = |l: &String| l.contains("Content Security Policy");
    assert!(
        loaded.console.iter().any(blocked),
        "console: {:#?}",
        loaded.console
    );
    for version in ["2026-07-28", "2025-11-25"] {
        let block = format!("<section class=\"version\" id=\"version-{version}\"");
        assert!(
            !hidden(&loaded.dom, &block),
            "{version} hidden without the script"
        );
    }
    assert!(loaded.dom.contains("id=\"tool-run\""));
    assert!(loaded.dom.contains("id=\"v2025-11-25-tool-run\""));
    assert!(hidden(&loaded.dom, "<select id=\"version-switch\""));
    assert!(hidden(&loaded.dom, "<input type=\"search\" id=\"filter\""));
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// The controls, used as a reader uses them (through the DevTools protocol): the
/// switcher shows the chosen version and its sidebar, the filter narrows the sidebar.
#[test]
fn switcher_and_filter_work_when_used() {
    let Some((chromium, file)) = setup("switcher_and_filter_work_when_used", SCOPED) else {
        return;
    };
    let visible = "[...document.querySelectorAll('[data-version]')].filter(e => !e.hidden).map(e => e.tagName + ':' + e.dataset.version).join(' ')";
    let profile = scratch("cdp");
    let mut page = drive(&chromium, &file, &profile.join("data"));
    assert_eq!(page.eval(visible), "DIV:2026-07-28 SECTION:2026-07-28");
    page.eval("(() => { const s = document.getElementById('version-switch'); s.value = '2025-11-25'; s.dispatchEvent(new Event('change')); return true; })()");
    assert_eq!(page.eval(visible), "DIV:2025-11-25 SECTION:2025-11-25");
    assert!(page.console.is_empty(), "console: {:#?}", page.console);
    drop(page);

    // Chess has a 2025-06-18 and a 2025-11-25 view (analyze_game's variants); the
    // filter is read off what the reader sees: the groups of the shown version only.
    let file = page_file(CHESS, &Options::default());
    let mut page = drive(&chromium, &file, &profile.join("data2"));
    let shown = "[...document.querySelectorAll('.toc .group')].filter(g => !g.closest('[hidden]')).map(g => g.querySelector('h4').textContent + '=' + [...g.querySelectorAll('li')].filter(l => !l.closest('[hidden]')).map(l => l.querySelector('a').getAttribute('href')).join(',')).join(' ')";
    let type_in = |text: &str| {
        format!("(() => {{ const f = document.getElementById('filter'); f.value = {text:?}; f.dispatchEvent(new Event('input')); return true; }})()")
    };
    page.eval(&type_in("Rating"));
    assert_eq!(
        page.eval(shown),
        "#rating=#tool-get_player_rating,#resource-chess%3A%2F%2Frating-pools #player=#tool-get_player_rating"
    );
    page.eval(&type_in(""));
    let all = page.eval(shown);
    assert_eq!(all.as_str().unwrap().split(' ').count(), 5, "{all}");
    assert!(page.console.is_empty(), "console: {:#?}", page.console);
    drop(page);
    let _ = std::fs::remove_dir_all(&profile);
}

/// An image the description embeds is shown (the policy allows `data:` images), and
/// decodes.
#[test]
fn embedded_image_is_shown() {
    let image = "mcpdesc-docs/tests/fixtures/image.mcpdesc.json";
    let Some((chromium, file)) = setup("embedded_image_is_shown", image) else {
        return;
    };
    let profile = scratch("cdp");
    let mut page = drive(&chromium, &file, &profile.join("data"));
    page.wait_for("document.readyState === 'complete'");
    let size = "[...document.querySelectorAll('img.embedded')].map(i => i.naturalWidth + 'x' + i.naturalHeight).join(' ')";
    assert_eq!(page.eval(size), "1x1");
    assert!(page.console.is_empty(), "console: {:#?}", page.console);
    drop(page);
    let _ = std::fs::remove_dir_all(&profile);
}

/// A six-level nested output schema with long identifiers, every fold opened, in a
/// 1,280 px wide window: nothing runs off the right edge (the page is no wider than
/// the window), each identifier breaks only at its `<wbr>`s (every piece between two
/// of them lies on one line), and the MCP Apps UI link leads to the resource's entry.
#[test]
fn deep_schema_fits_a_1280_px_window_and_identifiers_break_at_word_boundaries() {
    let test = "deep_schema_fits_a_1280_px_window_and_identifiers_break_at_word_boundaries";
    let Some((chromium, file)) = setup(test, DEEP) else {
        return;
    };
    let profile = scratch("cdp");
    let mut page = drive(&chromium, &file, &profile.join("data"));
    page.call(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
    );
    let opened = page.eval(
        "(() => { const d = [...document.querySelectorAll('details')]; d.forEach(e => e.open = true); return d.length; })()",
    );
    assert!(opened.as_u64().unwrap() >= 6, "details: {opened}");
    assert_eq!(page.eval("window.innerWidth"), 1280);
    // The deepest identifier is laid out (inside six opened levels)...
    let deepest = "[...document.querySelectorAll('code.ident')].find(c => c.textContent === 'barometricPressureSensorReading_normalizedToSeaLevel')";
    assert_eq!(
        page.eval(&format!("{deepest}.getBoundingClientRect().width > 0")),
        true
    );
    // ...and the page does not scroll sideways.
    let width = page.eval("document.documentElement.scrollWidth");
    assert!(width.as_u64().unwrap() <= 1280, "scrollWidth {width}");
    let overflowing = page.eval(
        "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 1280).length",
    );
    assert_eq!(overflowing, 0);
    // Each piece of an identifier between two line-break opportunities is on one line,
    // and some identifier did wrap (so the check saw a break).
    let pieces = "(() => { let split = 0, wrapped = 0; for (const c of document.querySelectorAll('code.ident')) { if (c.getClientRects().length === 0) continue; const tops = new Set(); for (const n of c.childNodes) { if (n.nodeType !== 3) continue; const r = document.createRange(); r.selectNodeContents(n); const lines = new Set([...r.getClientRects()].map(x => Math.round(x.top))); if (lines.size > 1) split++; lines.forEach(t => tops.add(t)); } if (tops.size > 1) wrapped++; } return split + ':' + wrapped; })()";
    page.call(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({"width": 420, "height": 800, "deviceScaleFactor": 1, "mobile": false}),
    );
    let seen = page.eval(pieces);
    let (split, wrapped) = seen.as_str().unwrap().split_once(':').unwrap();
    assert_eq!(split, "0", "identifier pieces broken mid-word");
    assert_ne!(
        wrapped, "0",
        "no identifier wrapped at 420 px: the check saw nothing"
    );
    // The tool's UI resource is a link to that resource's section.
    let target = page.eval(
        "document.querySelector('#tool-get_weather_report .ui-resource a').getAttribute('href')",
    );
    let target = target.as_str().unwrap().trim_start_matches('#').to_owned();
    assert_eq!(
        page.eval(&format!(
            "document.getElementById({target:?})?.classList.contains('resource')"
        )),
        true
    );
    assert!(page.console.is_empty(), "console: {:#?}", page.console);
    drop(page);
    let _ = std::fs::remove_dir_all(&profile);
}
