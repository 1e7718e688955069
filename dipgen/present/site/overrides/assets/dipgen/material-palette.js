/* dipgen: put back the colour palette the reader chose (kept by Material under "__palette"),
 * before the page is drawn; a file in place of Material's inline script (see main.html). */
(function () {
  "use strict";
  var palette = window.__md_get("__palette");
  if (!palette || !palette.color) return;
  var color = palette.color;
  if (color.media === "(prefers-color-scheme)") {  /* "automatic": the scheme the system prefers now */
    var light = matchMedia("(prefers-color-scheme: light)").matches;
    var input = document.querySelector("[data-md-color-media='(prefers-color-scheme: " + (light ? "light" : "dark") + ")']");
    if (input) {
      ["media", "scheme", "primary", "accent"].forEach(function (name) {
        color[name] = input.getAttribute("data-md-color-" + name);
      });
    }
  }
  Object.keys(color).forEach(function (name) {
    document.body.setAttribute("data-md-color-" + name, color[name]);
  });
})();
