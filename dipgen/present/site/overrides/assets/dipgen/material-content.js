/* dipgen: Material's content tabs, opened from the address (#__tabbed_...) and, with the
 * content.tabs.link feature (data-tabs-link), from the labels chosen before; a file in place
 * of Material's inline scripts (see main.html). */
(function () {
  "use strict";
  if (document.currentScript.hasAttribute("data-tabs-link")) {
    var chosen = window.__md_get("__tabs");
    if (Array.isArray(chosen)) {
      document.querySelectorAll(".tabbed-set").forEach(function (set) {
        var row = set.querySelector(".tabbed-labels");
        var labels = row ? Array.prototype.slice.call(row.getElementsByTagName("label")) : [];
        for (var i = 0; i < chosen.length; i++) {
          var label = labels.filter(function (l) { return l.innerText.trim() === chosen[i]; })[0];
          if (label) {
            document.getElementById(label.htmlFor).checked = true;
            return;
          }
        }
      });
    }
  }
  var target = document.getElementById(location.hash.slice(1));
  if (target && target.name) target.checked = target.name.indexOf("__tabbed_") === 0;
})();
