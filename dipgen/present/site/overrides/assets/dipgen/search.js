/* dipgen: Material's search worker replaced by dipgen's, which fetches the index on the reader's
 * first search rather than on every page (dipgen/mkdocs/search.py). Runs after Material's
 * configuration is in the page and before Material's script reads it (overrides/main.html). */
(function () {
  "use strict";
  var element = document.getElementById("__config");
  var here = document.currentScript && document.currentScript.src;
  if (!element || !here) return;
  try {
    var config = JSON.parse(element.textContent);
    if (typeof config.search !== "string") return;
    var worker = new URL("../javascripts/workers/dipgen-search.js", here);
    worker.searchParams.set("material", new URL(config.search, location.href).href);
    config.search = worker.href;
    element.textContent = JSON.stringify(config);
  } catch (e) {
    /* Material's own worker, as it was */
  }
})();
