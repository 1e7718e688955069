/* dipgen: the order sheet. The page lists each unit's legal orders (the engine's, in the sheet's
 * JSON: a file beside an open game's page, or inside a private page's encryption); this script only
 * filters and picks. A menu per unit (type part of an order: the start of a destination picks the
 * move there), a free line for orders the menus cannot offer, the orders as text with Copy, and a
 * mailto: link where the GM gives an address. Nothing leaves the browser otherwise. A private page
 * is inserted after this script runs, so sheets are looked for again whenever the page changes. */
(function () {
  "use strict";
  var made = 0;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text) node.textContent = text;
    return node;
  }

  /* The order a typed text picks: itself if it is one, else the first (in the menu's order: hold,
   * moves, supports, convoys) that contains it, case and spacing aside; null if none does. */
  function picked(typed, orders) {
    var t = typed.trim().toLowerCase().replace(/\s+/g, " ");
    if (!t) return null;
    for (var i = 0; i < orders.length; i++) if (orders[i].toLowerCase() === t) return orders[i];
    for (var j = 0; j < orders.length; j++) {
      var o = orders[j].toLowerCase();
      var dest = o.lastIndexOf(" - ") >= 0 ? o.slice(o.lastIndexOf(" - ") + 3) : "";
      if (dest.indexOf(t) === 0) return orders[j];
    }
    for (var k = 0; k < orders.length; k++) if (orders[k].toLowerCase().indexOf(t) >= 0) return orders[k];
    return null;
  }

  /* A power's part: its summary at once, its menus when it is first opened (an open game's page has
   * seven parts, of which a player opens one: the others cost the page nothing) */
  function powerForm(entry, data, n) {
    var box = el("details", { "class": "dg-sheet-form" }), made = false;
    box.appendChild(el("summary", {}, entry.power));
    function fill() {
      if (made) return;
      made = true;
      powerMenus(box, entry, data, n);
    }
    box.addEventListener("toggle", function () { if (box.open) fill(); });
    if (data.powers.length === 1) { box.open = true; fill(); }
    return box;
  }

  function powerMenus(box, entry, data, n) {
    var inputs = [];
    var text = el("textarea", { "class": "dg-sheet-text", readonly: "", rows: "4", id: "dg-sheet-text-" + n,
                                "aria-label": entry.power + ": your orders as text" });
    var free = el("textarea", { "class": "dg-sheet-free", rows: "2", id: "dg-sheet-free-" + n,
                                spellcheck: "false", autocapitalize: "none" });
    var copy = el("button", { type: "button", "class": "dg-sheet-copy" }, "Copy");
    var copied = el("span", { "class": "dg-sheet-status", role: "status" });
    var mail = data.orders_to ? el("a", { "class": "dg-sheet-mail" }, "Mail them to " + data.orders_to) : null;

    function update() {
      var lines = [];
      inputs.forEach(function (row) {
        var value = row.input.value.trim();
        var ok = !value || row.orders.indexOf(value) >= 0;
        row.input.setAttribute("aria-invalid", ok ? "false" : "true");
        row.message.textContent = ok ? "" : "Not a legal order of " + row.unit + ": pick one from the list, or write it in the free line.";
        if (value && ok) lines.push(value);
      });
      free.value.split("\n").forEach(function (line) { if (line.trim()) lines.push(line.trim()); });
      // headed by the power, so that whoever reads the message (dipgen orders) knows whose they are
      text.value = lines.length ? [entry.power + ":"].concat(lines).join("\n") : "";
      text.rows = Math.max(2, lines.length + 1);
      if (mail) {
        mail.href = "mailto:" + encodeURIComponent(data.orders_to).replace(/%40/g, "@") +
          "?subject=" + encodeURIComponent("Orders: " + entry.power + ", " + data.phase) +
          "&body=" + encodeURIComponent(text.value + "\n");
      }
    }

    var list = el("ol", { "class": "dg-sheet-rows" });
    entry.rows.forEach(function (row, i) {
      var id = "dg-sheet-" + n + "-" + i;
      var item = el("li", { "class": "dg-sheet-row" });
      var label = el("label", { "for": id }, row.unit);
      var last = i === entry.rows.length - 1;
      var input = el("input", { id: id, type: "text", list: id + "-list", autocomplete: "off", spellcheck: "false",
                                autocapitalize: "none", "aria-describedby": id + "-msg", placeholder: "type or pick",
                                enterkeyhint: last ? "done" : "next" });
      var options = el("datalist", { id: id + "-list" });
      row.orders.forEach(function (o) { options.appendChild(el("option", { value: o })); });
      var message = el("span", { id: id + "-msg", "class": "dg-sheet-msg", "aria-live": "polite" });
      var entryRow = { unit: row.unit, orders: row.orders, input: input, message: message };
      inputs.push(entryRow);
      /* Enter (a phone keyboard's "Next") picks and goes on to the next unit, and from the last to
       * Copy: a power's orders without leaving the keyboard; an order tapped in the menu goes on too */
      function onward() {
        if (!input.value.trim() || input.getAttribute("aria-invalid") === "true") return;
        (last ? copy : inputs[i + 1].input).focus();
      }
      input.addEventListener("input", function (e) {
        update();
        if (e.inputType === "insertReplacementText" && row.orders.indexOf(input.value) >= 0) onward();
      });
      function settle() {
        var p = picked(input.value, row.orders);
        if (input.value.trim() && p) input.value = p;
        update();
      }
      input.addEventListener("change", settle);
      input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); settle(); onward(); } });
      item.appendChild(label);
      item.appendChild(input);
      item.appendChild(options);
      item.appendChild(message);
      list.appendChild(item);
    });
    box.appendChild(list);
    var freeLabel = el("label", { "for": free.id }, "Other orders, one a line (a support of a unit the menus do not show):");
    box.appendChild(freeLabel);
    box.appendChild(free);
    free.addEventListener("input", update);
    var out = el("div", { "class": "dg-sheet-out" });
    out.appendChild(el("label", { "for": text.id }, "Your orders"));
    out.appendChild(text);
    var actions = el("p", { "class": "dg-sheet-actions" });
    actions.appendChild(copy);
    if (mail) actions.appendChild(mail);
    actions.appendChild(copied);
    out.appendChild(actions);
    box.appendChild(out);
    copy.addEventListener("click", function () {
      function done() { copied.textContent = "Copied."; }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text.value).then(done, function () { text.select(); copied.textContent = "Selected: copy it."; });
      } else {
        text.select();
        copied.textContent = "Selected: copy it.";
      }
    });
    update();
  }

  function build(section, data) {
    var app = section.querySelector(".dg-sheet-app");
    if (!app) return;
    data.powers.forEach(function (entry) { app.appendChild(powerForm(entry, data, made++)); });
    app.hidden = false;
    /* the list without JavaScript gives way to the menus (the theme styles <details>: removed, not hidden) */
    Array.prototype.forEach.call(section.querySelectorAll(".dg-sheet-power"), function (d) { d.parentNode.removeChild(d); });
  }

  function start(section) {
    if (section.getAttribute("data-dg-ready")) return;
    section.setAttribute("data-dg-ready", "yes");
    var embedded = section.querySelector("script.dg-sheet-data");
    if (embedded) {
      build(section, JSON.parse(embedded.textContent));
      return;
    }
    var url = section.getAttribute("data-dg-sheet");
    if (!url) return;
    fetch(url).then(function (r) {
      if (!r.ok) throw new Error(url + ": " + r.status);
      return r.json();
    }).then(function (data) { build(section, data); }, function () { /* the list stays */ });
  }

  function scan() { Array.prototype.forEach.call(document.querySelectorAll("section.dg-sheet"), start); }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan); else scan();
  if (window.MutationObserver) new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true });
})();
