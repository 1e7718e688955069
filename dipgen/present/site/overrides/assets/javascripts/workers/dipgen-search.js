/* dipgen's search worker. With Pagefind's index (dipgen/mkdocs/pagefind.py) it asks Pagefind, query
 * by query. Else (dipgen/mkdocs/search.py): Material's worker and the index's documents, both
 * fetched on the reader's first search. Until then it says search is ready and keeps the
 * latest query; then it gives Material's worker the whole index, and on its answer the query; from
 * then on every message goes to Material's worker as it would have. It lives beside Material's
 * worker, whose language files are found relative to the worker's address. */
(function () {
  "use strict";
  var material = new URL(self.location.href).searchParams.get("material");
  var send = self.postMessage.bind(self);
  var handler = null;   /* Material's worker's listener, once it is loaded */
  var setup = null;     /* the setup message Material's page sent */
  var query = null;     /* the latest query asked before the index came */
  var loading = false, swallow = false;

  /* Material's worker, loaded here; its message listener taken rather than added. */
  function loadMaterial() {
    var add = self.addEventListener;
    self.addEventListener = function (type, listener) {
      if (type === "message") handler = listener;
      else add.apply(self, arguments);
    };
    try { importScripts(material); } finally { self.addEventListener = add; }
  }

  /* Material's answers pass on, but for the "ready" of a setup this worker already answered. */
  self.postMessage = function (message) {
    if (swallow && message && message.type === 1) {
      swallow = false;
      if (query !== null) handler({ data: { type: 2, data: query } });
      query = null;
      return;
    }
    send(message);
  };

  function handOver(docs, answered) {
    loadMaterial();
    if (docs) setup.data.docs = docs;
    swallow = answered;
    handler({ data: setup });
  }

  function fetchDocs() {
    loading = true;
    var url = new URL("../../../search/" + setup.data.config.dipgen_docs, self.location.href);
    fetch(url.href).then(function (response) {
      if (!response.ok) throw new Error(url.href + ": " + response.status);
      return response.json();
    }).then(function (index) {
      handOver(index.docs, true);
    }).catch(function (error) {
      loading = false;  /* tried again at the next search */
      console.warn("dipgen: could not load the search index", error);
      send({ type: 3, data: { items: [] } });
    });
  }

  /* ---- Pagefind's index (dipgen/mkdocs/pagefind.py): asked query by query, answered in Material's
   * terms (a result: its page first, then its sections; titles as HTML, excerpts as Pagefind marks
   * them). Only the answer to the latest query is sent. */
  var ROOT = new URL("../../../", self.location.href).href;  /* the site's root: this file is three down */
  var pagefind = null, latest = 0;
  var SHOWN = 10;  /* results whose fragments are fetched: the ten Material shows at once */
  var PAUSE = 150;  /* ms: a query is looked up once the reader pauses, not at every key */
  var timer = null;

  function escape(text) {
    return String(text || "").replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function located(url) {  /* Pagefind's address, as Material's index has it: from the site's root */
    var full = new URL(url, ROOT).href;
    return full.indexOf(ROOT) === 0 ? full.slice(ROOT.length) : full;
  }

  /* A section's address: a season's section of its game's document stands for the season's page,
   * whose address (from the site's root) its heading's id gives after PAGE (dipgen/mkdocs/pagefind.py's
   * PAGE_ANCHOR); an id of that form that is no such address (a scheme, a host) is an anchor as any. */
  var PAGE = "dipgen-page:";
  function sectionAt(sub) {
    var id = sub.anchor && sub.anchor.id || "", page = id.slice(PAGE.length);
    return id.indexOf(PAGE) === 0 && /^[^\/:?#][^:?#]*$/.test(page) ? page : located(sub.url);
  }

  function items(data, score, terms) {
    var page = { location: located(data.url), title: escape(data.meta && data.meta.title || data.url),
                 text: data.excerpt || "", score: score, terms: terms };
    var sections = (data.sub_results || []).filter(function (sub) { return sub.url.indexOf("#") >= 0; })
      .map(function (sub, i) {
        var hits = (sub.weighted_locations || sub.locations || []).length;
        return { location: sectionAt(sub), title: escape(sub.title), text: sub.excerpt || "",
                 score: hits, terms: terms, order: i };
      })
      .sort(function (a, b) { return b.score - a.score || a.order - b.order; })
      .map(function (sub, i) {  /* the two best sections shown, the rest under "more" */
        return { location: sub.location, title: sub.title, text: sub.text, terms: terms,
                 score: i < 2 ? score : score / 2 };
      });
    return [page].concat(sections);
  }

  function loadPagefind(bundle) {
    if (!pagefind) {
      var base = new URL(bundle, ROOT).href;
      pagefind = import(base + "pagefind.js").then(function (module) {
        return module.options({ basePath: base, baseUrl: ROOT }).then(function () { return module; });
      });
      pagefind.catch(function () { pagefind = null; });  /* tried again at the next search */
    }
    return pagefind;
  }

  function searchPagefind(query) {
    var asked = ++latest;
    var words = query.trim().split(/\s+/), terms = {};
    words.forEach(function (w) { terms[w] = true; });
    loadPagefind(setup.data.config.dipgen_pagefind).then(function (module) {
      return module.search(query.trim());
    }).then(function (found) {
      if (asked !== latest) return null;
      return Promise.all(found.results.slice(0, SHOWN).map(function (r) {
        return r.data().then(function (data) { return items(data, r.score, terms); });
      }));
    }).then(function (results) {
      if (results && asked === latest) send({ type: 3, data: { items: results } });
    }).catch(function (error) {
      console.warn("dipgen: the search failed", error);
      if (asked === latest) send({ type: 3, data: { items: [] } });
    });
  }

  self.addEventListener("message", function (event) {
    var message = event.data;
    if (handler && !swallow) return handler(event);  /* handed over (while it builds the index: kept) */
    if (message.type === 0 && message.data.config && message.data.config.dipgen_pagefind) {
      setup = message;
      send({ type: 1 });
    } else if (message.type === 2 && setup && setup.data.config.dipgen_pagefind) {
      clearTimeout(timer);
      if (String(message.data).trim()) timer = setTimeout(searchPagefind, PAUSE, String(message.data));
      else { latest++; send({ type: 3, data: { items: [] } }); }
    } else if (message.type === 0) {
      setup = message;
      var lazy = message.data.config && message.data.config.dipgen_docs && !message.data.docs.length;
      if (!lazy) return handOver(null, false);
      send({ type: 1 });
    } else if (message.type === 2 && setup && !String(message.data).trim()) {
      send({ type: 3, data: { items: [] } });  /* the empty query the page sends as it opens: nothing to fetch */
    } else if (message.type === 2 && setup) {
      query = message.data;
      if (!loading) fetchDocs();
    }
  });
})();
