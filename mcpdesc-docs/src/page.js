// mcpdesc docs: navigation only. The page is complete without this script; it hides
// the protocol versions not chosen in the switcher and filters the sidebar. It reads
// the page's own markup and never any description text as code.
(function () {
  "use strict";
  var doc = document;
  var blocks = doc.querySelectorAll("[data-version]");
  var switcher = doc.getElementById("version-switch");
  function show(version) {
    for (var i = 0; i < blocks.length; i++) {
      blocks[i].hidden = blocks[i].getAttribute("data-version") !== version;
    }
    if (switcher) {
      switcher.value = version;
    }
  }
  function target() {
    var raw = location.hash.slice(1);
    if (!raw) {
      return null;
    }
    var found = doc.getElementById(raw);
    if (!found) {
      try {
        found = doc.getElementById(decodeURIComponent(raw));
      } catch (e) {
        found = null;
      }
    }
    return found;
  }
  function follow() {
    var el = target();
    var block = el && el.closest("[data-version]");
    if (block) {
      show(block.getAttribute("data-version"));
      el.scrollIntoView();
    }
  }
  if (switcher && blocks.length) {
    switcher.hidden = false;
    switcher.addEventListener("change", function () {
      show(switcher.value);
    });
    show(switcher.options[0].value);
    follow();
    window.addEventListener("hashchange", follow);
  }
  var filter = doc.getElementById("filter");
  if (filter) {
    filter.hidden = false;
    filter.addEventListener("input", function () {
      var query = filter.value.toLowerCase();
      var groups = doc.querySelectorAll(".toc .group");
      for (var g = 0; g < groups.length; g++) {
        var entries = groups[g].querySelectorAll("li[data-filter]");
        var shown = 0;
        for (var i = 0; i < entries.length; i++) {
          var hit = entries[i].getAttribute("data-filter").indexOf(query) >= 0;
          entries[i].hidden = !hit;
          shown += hit ? 1 : 0;
        }
        groups[g].hidden = shown === 0;
      }
    });
  }
  doc.documentElement.setAttribute("data-js", "ready");
})();
