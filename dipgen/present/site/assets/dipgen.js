/* dipgen: sortable tables, tables that open at their latest year, "Download SVG" for the stacked
 * maps, and the maps full screen with zoom (through Panzoom, loaded only on pages with maps). */
(function () {
  "use strict";
  var HERE = document.currentScript ? document.currentScript.src : location.href;

  /* ---- Sortable tables: click a column heading of a table.dg-sortable. ---- */
  function cellKey(row, index) {
    var cell = row.cells[index];
    if (!cell) return "";
    return cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim().toLowerCase();
  }

  function sortBy(table, index, numeric, ascending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a, index), y = cellKey(b, index);
      var order = numeric ? (parseFloat(x) || 0) - (parseFloat(y) || 0) : x.localeCompare(y);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  function makeSortable(table) {
    if (table.dataset.dgSortable) return;
    table.dataset.dgSortable = "yes";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      if (th.hasAttribute("data-nosort")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "dg-sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(th.parentNode.cells, function (other) {
          if (other.hasAttribute("aria-sort")) other.setAttribute("aria-sort", "none");
        });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        sortBy(table, index, th.getAttribute("data-type") === "number", ascending);
      });
    });
  }

  /* ---- Download SVG: the base map and the overlay merged into one file. ---- */
  function fetchSvg(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ": " + response.status);
      return response.text();
    }).then(function (text) {
      return new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
    });
  }

  function mergedSvg(boardUrl, overlayUrl) {
    return Promise.all([fetchSvg(boardUrl), fetchSvg(overlayUrl)]).then(function (svgs) {
      var board = svgs[0], overlay = svgs[1];
      var layer = board.ownerDocument.createElementNS("http://www.w3.org/2000/svg", "g");
      layer.setAttribute("id", "overlay");
      Array.prototype.forEach.call(overlay.childNodes, function (node) {
        layer.appendChild(board.ownerDocument.importNode(node, true));
      });
      board.appendChild(layer);
      return new XMLSerializer().serializeToString(board);
    });
  }

  function offerDownload(link) {
    if (!window.fetch || !window.DOMParser || !window.Blob) return;
    link.hidden = false;
    link.addEventListener("click", function (event) {
      event.preventDefault();
      mergedSvg(link.dataset.board, link.dataset.overlay).then(function (text) {
        var url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
        var save = document.createElement("a");
        save.href = url;
        save.download = link.getAttribute("download") || "map.svg";
        document.body.appendChild(save);
        save.click();
        save.remove();
        setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
      }).catch(function (error) {
        console.warn("dipgen: could not build the SVG download", error);
        window.location.href = link.dataset.overlay;
      });
    });
  }

  /* ---- Deadlines: a <time data-dg-deadline> (UTC in the page) in the reader's own time, with
     how long is left ("2 days left", "5 hours left", "overdue"). ---- */
  function timeLeft(ms) {
    var hour = 3600000;
    if (ms <= 0) return "overdue";
    if (ms >= 48 * hour) return Math.floor(ms / (24 * hour)) + " days left";
    if (ms >= 2 * hour) return Math.floor(ms / hour) + " hours left";
    var minutes = Math.max(1, Math.ceil(ms / 60000));
    return minutes + (minutes === 1 ? " minute left" : " minutes left");
  }

  function showDeadline(time) {
    if (time.dataset.dgShown) return;
    var when = new Date(time.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    time.dataset.dgShown = "yes";
    time.title = time.textContent;  /* the UTC text the page was built with */
    try {
      time.textContent = when.toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short",
        year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    } catch (error) {
      time.textContent = when.toLocaleString();
    }
    var ms = when.getTime() - Date.now();
    var left = document.createElement("span");
    left.className = "dg-left" + (ms <= 0 ? " dg-left--overdue" : "");
    left.textContent = " (" + timeLeft(ms) + ")";
    time.parentNode.insertBefore(left, time.nextSibling);
  }

  /* ---- A table of years (the centre table) opens scrolled to its latest year; without
   * JavaScript it opens at the first, and scrolls by touch, mouse or keyboard all the same. ---- */
  function startAtEnd(box) {
    var touched = false;
    var go = function () { if (!touched) box.scrollLeft = box.scrollWidth; };
    ["pointerdown", "wheel", "keydown", "touchstart"].forEach(function (name) {
      box.addEventListener(name, function () { touched = true; }, { passive: true });
    });
    go();
    /* fonts and images loaded, or a phone turned, change the table's width: again, unless the
     * reader has scrolled it herself */
    window.addEventListener("load", go);
    window.addEventListener("resize", go);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(go);
  }

  /* ---- Maps full screen: a tap, a click, or Enter on the focused map opens it in a dialog over
   * the whole window, where it zooms (pinch, wheel, the + and - buttons or keys, a double tap) and
   * pans (drag, arrow keys). The gestures are Panzoom's (assets/dipgen/panzoom.min.js, MIT; its
   * licence beside it), fetched from this site when a page has a map. Escape or the close button
   * leaves, and focus goes back to the map. Without JavaScript a map stays an image. ---- */
  var MAX_ZOOM = 6;   /* a province's name then stands 14 px tall or more on a 390 px phone */
  var panzoomLoaded = null;
  var viewer = null;

  function loadPanzoom() {
    if (!panzoomLoaded) {
      panzoomLoaded = new Promise(function (resolve, reject) {
        if (window.Panzoom) return resolve(window.Panzoom);
        var script = document.createElement("script");
        script.src = new URL("panzoom.min.js", HERE).href;
        script.onload = function () { resolve(window.Panzoom); };
        script.onerror = reject;
        document.head.appendChild(script);
      });
    }
    return panzoomLoaded;
  }

  function element(tag, className, attributes) {
    var e = document.createElement(tag);
    e.className = className;
    Object.keys(attributes || {}).forEach(function (k) { e.setAttribute(k, attributes[k]); });
    return e;
  }

  function button(className, label, text) {
    var b = element("button", className, { type: "button", "aria-label": label, title: label });
    b.textContent = text;
    return b;
  }

  function makeViewer(Panzoom) {
    var dialog = element("dialog", "dg-zoom", { "aria-labelledby": "dg-zoom-title" });
    var bar = element("div", "dg-zoom-bar");
    var title = element("p", "dg-zoom-title", { id: "dg-zoom-title" });
    var out = button("dg-zoom-out", "Zoom out", "\u2212"), into = button("dg-zoom-in", "Zoom in", "+");
    var fit = button("dg-zoom-fit", "Fit the map to the screen", "Fit");
    var close = button("dg-zoom-close", "Close full screen", "\u2715");
    var view = element("div", "dg-zoom-view");
    var stage = element("div", "dg-zoom-stage");
    var board = element("img", "dg-zoom-board", { alt: "", draggable: "false" });
    var overlay = element("img", "dg-zoom-overlay", { draggable: "false" });
    [title, out, into, fit, close].forEach(function (e) { bar.appendChild(e); });
    stage.appendChild(board);
    stage.appendChild(overlay);
    view.appendChild(stage);
    dialog.appendChild(bar);
    dialog.appendChild(view);
    document.body.appendChild(dialog);
    var pz = Panzoom(stage, { maxScale: MAX_ZOOM, minScale: 1, step: 0.5, panOnlyWhenZoomed: true, cursor: "grab" });
    var v = { dialog: dialog, title: title, view: view, stage: stage, board: board, overlay: overlay, pz: pz, opener: null };
    view.addEventListener("wheel", pz.zoomWithWheel);
    view.addEventListener("dblclick", function (e) { pz.zoomToPoint(Math.min(MAX_ZOOM, pz.getScale() * 2), e); });
    stage.addEventListener("panzoomend", function () { if (pz.getScale() <= 1.001) pz.reset(); });
    into.addEventListener("click", function () { pz.zoomIn(); });
    out.addEventListener("click", function () { pz.zoomOut(); });
    fit.addEventListener("click", function () { pz.reset(); });
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("keydown", function (e) { viewerKey(v, e); });
    dialog.addEventListener("close", function () { closed(v); });
    window.addEventListener("resize", function () { if (dialog.open) fitStage(v); });
    return v;
  }

  function viewerKey(v, e) {
    var step = 60 / v.pz.getScale();
    var moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (e.key === "+" || e.key === "=") v.pz.zoomIn();
    else if (e.key === "-" || e.key === "_") v.pz.zoomOut();
    else if (e.key === "0") v.pz.reset();
    else if (moves[e.key] && v.pz.getScale() > 1) v.pz.pan(moves[e.key][0], moves[e.key][1], { relative: true });
    else return;
    e.preventDefault();
  }

  /* The map as large as the window lets it be, whole; zoom starts from there. */
  function fitStage(v) {
    var box = v.view.getBoundingClientRect();
    var ratio = v.ratio || 1;
    var width = Math.min(box.width, box.height * ratio);
    v.stage.style.width = width + "px";
    v.stage.style.height = width / ratio + "px";
  }

  function openViewer(figure) {
    loadPanzoom().then(function (Panzoom) {
      if (!viewer || !viewer.dialog.isConnected) viewer = makeViewer(Panzoom);  /* a page swapped in keeps no dialog */
      var v = viewer, link = figure.querySelector("a.dg-download"), img = figure.querySelector("img.dg-map-overlay");
      v.opener = figure.querySelector(".dg-map-stack");
      v.ratio = parseFloat(img.getAttribute("width")) / parseFloat(img.getAttribute("height")) || 1;
      v.board.src = link.dataset.board;
      v.overlay.src = img.getAttribute("src");  /* in the palette the page shows */
      v.overlay.alt = img.alt;
      v.title.textContent = figure.querySelector("figcaption span").textContent;
      v.dialog.showModal();
      document.documentElement.classList.add("dg-zoom-open");
      fitStage(v);
      v.pz.reset({ animate: false });
      v.dialog.querySelector(".dg-zoom-close").focus();
    }).catch(function (error) {
      panzoomLoaded = null;  /* tried again at the next tap */
      console.warn("dipgen: could not load the map viewer", error);
    });
  }

  function closed(v) {
    document.documentElement.classList.remove("dg-zoom-open");
    if (v.opener) v.opener.focus();
  }

  /* One download of the board a page: a map after the first on the same board holds its board in a
   * <noscript> (dipgen/present/site/jinja.py: map_figure); here it gets its own <object>, fetched
   * once the first map's board has loaded, and so from the browser's cache. */
  function hasSvg(board) {
    var doc = board.contentDocument;
    return !!(doc && doc.documentElement && doc.documentElement.nodeName === "svg");
  }

  function shareBoards(maps) {
    var first = null, waiting = [];
    maps.forEach(function (figure) {
      var stack = figure.querySelector(".dg-map-stack"), link = figure.querySelector("a.dg-download");
      if (!stack || !link) return;
      var board = stack.querySelector("object.dg-map-board");
      if (board) { first = first || board; return; }
      if (!stack.querySelector("noscript")) return;
      board = element("object", "dg-map-board", { type: "image/svg+xml", "aria-hidden": "true", tabindex: "-1" });
      stack.insertBefore(board, stack.firstChild);
      waiting.push([board, link.dataset.board]);
    });
    if (!waiting.length) return;
    var done = false, load = function () {
      if (done) return;
      done = true;
      waiting.forEach(function (w) { w[0].setAttribute("data", w[1]); });
    };
    if (!first || hasSvg(first)) return load();
    first.addEventListener("load", load);
    first.addEventListener("error", load);
    window.setTimeout(load, 10000);  /* a first board that never answers keeps no other map blank */
  }

  /* The map on the page becomes a button that opens the viewer; a tap on the base map (a
   * document of its own inside the <object>, which keeps its province names on hover) too. */
  function zoomable(figure) {
    var stack = figure.querySelector(".dg-map-stack"), img = figure.querySelector("img.dg-map-overlay");
    var link = figure.querySelector("a.dg-download");
    if (!stack || !img || !link || stack.hasAttribute("role")) return;
    var open = function () { openViewer(figure); };
    stack.setAttribute("role", "button");
    stack.setAttribute("tabindex", "0");
    stack.setAttribute("aria-haspopup", "dialog");
    stack.setAttribute("aria-label", "Open full screen to zoom: " + img.alt);
    stack.classList.add("dg-zoomable");
    stack.addEventListener("click", open);
    stack.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(); }
    });
    var board = figure.querySelector("object.dg-map-board");
    var hook = function () {
      var doc = board.contentDocument;
      if (doc && doc.documentElement && doc.documentElement.nodeName === "svg" && !doc.dgZoom) {
        doc.dgZoom = true;
        doc.addEventListener("click", open);
      }
    };
    if (board) { board.addEventListener("load", hook); hook(); }
  }

  /* The search dialog named, as every dialog must be for a screen reader to say what opened, where
     the theme's own markup leaves it unnamed: an exported site keeps its generator's search
     (dipgen/usecases/export.py), whose name is its box's placeholder ("Search"). */
  function nameSearch(dialog) {
    var input = dialog.querySelector("input");
    dialog.setAttribute("aria-label", (input && input.getAttribute("placeholder")) || "Search");
  }

  /* The maps' palette: the site's (an overlay's address ends in #o-cb where the site's is the
     colour-blind one) until the reader picks hers with the switch under a map, which this browser
     remembers. The map switches by CSS (:target) alone: no script runs in an SVG shown as an image;
     the centre chart and the swatches beside the powers' names, drawn in the page, by the class
     dg-cb on the page's root (dipgen.css). */
  var PALETTE_KEY = "dipgen-palette", SAFE = "#o-cb";

  function remembered() {
    try { return window.localStorage.getItem(PALETTE_KEY); } catch (e) { return null; }
  }

  function showPalette(safe) {
    document.documentElement.classList.toggle("dg-cb", safe);  /* the centre chart's rules read it */
    document.querySelectorAll("img.dg-map-overlay").forEach(function (img) {
      var src = img.getAttribute("src").split("#")[0] + (safe ? SAFE : "");
      if (img.getAttribute("src") !== src) img.setAttribute("src", src);
    });
    document.querySelectorAll("button.dg-palette").forEach(function (b) {
      b.setAttribute("aria-pressed", safe ? "true" : "false");
    });
  }

  function paletteSwitch(figure) {
    var caption = figure.querySelector("figcaption");
    if (!caption || caption.querySelector("button.dg-palette")) return;
    var b = element("button", "dg-palette", { type: "button", "aria-pressed": "false",
      title: "The powers' colours chosen to stay apart for colour-blind readers (remembered in this browser)" });
    b.textContent = "Colour-blind palette";
    b.addEventListener("click", function () {
      var safe = b.getAttribute("aria-pressed") !== "true";
      try { window.localStorage.setItem(PALETTE_KEY, safe ? "colour-blind" : "usual"); } catch (e) { /* not remembered */ }
      showPalette(safe);
    });
    caption.appendChild(document.createTextNode(" "));
    caption.appendChild(b);
  }

  /* Every page shows the reader's palette, once she has picked one: a page without a map (the
     archive, a player's page) has no switch, but its powers' swatches follow hers. */
  function palettes(maps) {
    var first = maps.length ? maps[0].querySelector("img.dg-map-overlay") : null, mine = remembered();
    if (!mine && !first) return;
    var safe = mine ? mine === "colour-blind" : first.getAttribute("src").indexOf(SAFE) >= 0;
    maps.forEach(paletteSwitch);
    showPalette(safe);
  }

  /* Material wraps each table of a Markdown page in a box that scrolls sideways on a phone: a
     keyboard reaches what is hidden only if the box can take focus (axe: scrollable-region-focusable) */
  function focusable(box) {
    if (box.hasAttribute("tabindex")) return;
    var head = box.querySelector("th");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", head ? "Table: " + head.textContent.trim() : "Table");
  }

  function init() {
    document.querySelectorAll(".md-search[role='dialog']:not([aria-label])").forEach(nameSearch);
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(focusable);
    document.querySelectorAll("table.dg-sortable").forEach(makeSortable);
    document.querySelectorAll(".dg-scroll[data-dg-start='end']").forEach(startAtEnd);
    document.querySelectorAll("a.dg-download[hidden]").forEach(offerDownload);
    document.querySelectorAll("time[data-dg-deadline]").forEach(showDeadline);
    var maps = document.querySelectorAll("figure.dg-map");
    palettes(maps);
    if (maps.length) {
      shareBoards(maps);
      maps.forEach(zoomable);
      loadPanzoom().catch(function () { panzoomLoaded = null; /* tried again when a map is opened */ });
    }
  }

  /* Material's instant loading swaps pages without reloading: it announces each one on document$. */
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
