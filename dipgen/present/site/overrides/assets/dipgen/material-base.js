/* dipgen: the globals mkdocs-material's bundle expects from its inline head script, set from a
 * file so that the pages' Content-Security-Policy can forbid inline scripts. data-scope on this
 * script's element is the site's base URL as Material gives it. */
(function () {
  "use strict";
  var scope = new URL(document.currentScript.getAttribute("data-scope") || ".", location);

  /* A short hash of a text, as Material computes it (for a dismissed announcement). */
  function hash(text) {
    return Array.from(text).reduce(function (h, ch) { return (h << 5) - h + ch.charCodeAt(0); }, 0);
  }

  /* Settings kept per site: "<site path>.<key>" in localStorage (or the storage given). */
  function get(key, storage, base) {
    storage = storage || localStorage;
    return JSON.parse(storage.getItem((base || window.__md_scope).pathname + "." + key));
  }

  function set(key, value, storage, base) {
    storage = storage || localStorage;
    try {
      storage.setItem((base || window.__md_scope).pathname + "." + key, JSON.stringify(value));
    } catch (e) { /* storage full or off: not kept */ }
  }

  window.__md_scope = scope;
  window.__md_hash = hash;
  window.__md_get = get;
  window.__md_set = set;
})();
