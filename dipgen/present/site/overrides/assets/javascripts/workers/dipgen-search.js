/* dipgen's search worker (dipgen/mkdocs/search.py): Material's worker and the index's documents,
 * both fetched on the reader's first search. Until then it says search is ready and keeps the
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

  self.addEventListener("message", function (event) {
    var message = event.data;
    if (handler && !swallow) return handler(event);  /* handed over (while it builds the index: kept) */
    if (message.type === 0) {
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
