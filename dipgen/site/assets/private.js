/* dipgen: open a player's private page.
 *
 * The page carries one encrypted envelope (JSON in #pp-payload, written by dipgen/private.py):
 *   {v: 1, kdf: "PBKDF2-SHA256", iter, cipher: "AES-256-GCM", zip: "deflate", pad, salt, iv, ct}
 * (salt, iv, ct in base64). The passphrase gives the AES-256-GCM key by PBKDF2-HMAC-SHA256 with
 * that salt and iteration count; decrypting, then inflating (zlib's deflate format), gives the
 * page's HTML, which replaces the form. A wrong passphrase fails
 * GCM's authentication check: we say so, and log nothing.
 *
 * "Remember" keeps the derived key (never the passphrase) in sessionStorage, for this page
 * and this tab only, until the tab is closed or "Forget" is pressed.
 *
 * WebCrypto needs a secure context: https, or http://127.0.0.1 / localhost. Opened as a
 * file:// URL, some browsers refuse; the page then says so.
 */
(function () {
  "use strict";

  var main = document.getElementById("pp-main");
  var form = document.getElementById("pp-form");
  var input = document.getElementById("pp-pass");
  var show = document.getElementById("pp-show");
  var remember = document.getElementById("pp-remember");
  var button = document.getElementById("pp-open");
  var message = document.getElementById("pp-message");
  var storeKey = "dipgen-private:" + location.pathname;
  var envelope;

  /* sessionStorage may be off (privacy settings): then nothing is remembered, and nothing fails. */
  function stored() { try { return sessionStorage.getItem(storeKey); } catch (e) { return null; } }
  function store(value) { try { sessionStorage.setItem(storeKey, value); } catch (e) { /* not kept */ } }
  function forget() { try { sessionStorage.removeItem(storeKey); } catch (e) { /* nothing kept */ } }

  function say(text, bad) {
    message.textContent = text;
    message.className = "pp-message" + (bad ? " pp-bad" : "");
  }

  function bytes(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function base64(buffer) {
    var s = "", b = new Uint8Array(buffer);
    for (var i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
    return btoa(s);
  }

  /* The same normalisation as dipgen.secrets.normalize: NFC, surrounding spaces dropped. */
  function deriveKey(passphrase) {
    var raw = new TextEncoder().encode(passphrase.normalize("NFC").trim());
    return crypto.subtle.importKey("raw", raw, "PBKDF2", false, ["deriveKey"]).then(function (base) {
      return crypto.subtle.deriveKey(
        { name: "PBKDF2", hash: "SHA-256", salt: bytes(envelope.salt), iterations: envelope.iter },
        base, { name: "AES-GCM", length: 256 }, true, ["decrypt"]);
    });
  }

  function decrypt(key) {
    return crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes(envelope.iv) }, key, bytes(envelope.ct))
      .then(function (plain) {
        if (envelope.pad) {  // a 4-byte length, the data, zeros: the size tells nothing
          plain = plain.slice(4, 4 + new DataView(plain).getUint32(0));
        }
        if (envelope.zip !== "deflate") return new TextDecoder().decode(plain);
        var stream = new Blob([plain]).stream().pipeThrough(new DecompressionStream("deflate"));
        return new Response(stream).text();
      });
  }

  function reveal(html) {
    main.innerHTML = html;
    if (stored()) {
      var lock = document.createElement("button");
      lock.type = "button";
      lock.className = "pp-lock";
      lock.textContent = "Forget my passphrase in this tab";
      lock.addEventListener("click", function () {
        forget();
        location.reload();
      });
      main.appendChild(lock);
    }
    window.scrollTo(0, 0);
  }

  function remembered() {
    /* {salt, key}: the key derived for this page's salt; a rebuilt page has a new salt. */
    try {
      var saved = JSON.parse(stored() || "null");
      if (!saved || saved.salt !== envelope.salt) return Promise.reject(new Error("none"));
      return crypto.subtle.importKey("raw", bytes(saved.key), "AES-GCM", false, ["decrypt"]);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  function submit(event) {
    event.preventDefault();
    if (!input.value.trim()) {
      say("Type your passphrase first.", true);
      return;
    }
    button.disabled = true;
    say("Opening…", false);
    var key;
    deriveKey(input.value)
      .then(function (k) { key = k; return decrypt(k); })
      .then(function (html) {
        if (remember.checked) {
          return crypto.subtle.exportKey("raw", key).then(function (raw) {
            store(JSON.stringify({ salt: envelope.salt, key: base64(raw) }));
            return html;
          });
        }
        forget();
        return html;
      })
      .then(reveal, function () {
        button.disabled = false;
        say("That passphrase does not open this page. Check it (letters, digits and dashes, " +
            "all lower case) and try again.", true);
        input.focus();
        input.select();
      });
  }

  function start() {
    try {
      envelope = JSON.parse(document.getElementById("pp-payload").textContent);
    } catch (e) {
      envelope = null;
    }
    form.hidden = false;
    if (!envelope || envelope.v !== 1 || envelope.kdf !== "PBKDF2-SHA256" || envelope.cipher !== "AES-256-GCM" ||
        (envelope.zip && envelope.zip !== "deflate")) {
      say("This page is damaged or was made by a newer dipgen: ask your game master.", true);
      button.disabled = true;
      return;
    }
    if (envelope.zip && typeof DecompressionStream === "undefined") {
      say("Your browser is too old to open this page: update it (or try another one).", true);
      button.disabled = true;
      return;
    }
    if (!window.isSecureContext || !window.crypto || !crypto.subtle) {
      say("Your browser will not decrypt here: open this page over https:// (or http://127.0.0.1), " +
          "not as a file.", true);
      button.disabled = true;
      return;
    }
    show.addEventListener("change", function () { input.type = show.checked ? "text" : "password"; });
    form.addEventListener("submit", submit);
    remembered().then(decrypt).then(reveal, function () {
      if (stored()) forget();
      input.focus();
    });
  }

  start();
})();
