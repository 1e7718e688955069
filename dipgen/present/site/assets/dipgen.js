/* dipgen: sortable tables and "Download SVG" for the stacked maps. No dependencies. */
(function () {
  "use strict";

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

  function init() {
    document.querySelectorAll("table.dg-sortable").forEach(makeSortable);
    document.querySelectorAll("a.dg-download[hidden]").forEach(offerDownload);
    document.querySelectorAll("time[data-dg-deadline]").forEach(showDeadline);
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
