/* dipgen: open a player's private page.
 *
 * The page carries one encrypted envelope (JSON in #pp-payload, written by dipgen/core/crypt.py):
 *   {v: 1, kdf: "PBKDF2-SHA256", iter, cipher: "AES-256-GCM", zip: "deflate", pad, salt, iv, ct}
 * (salt, iv, ct in base64). The passphrase gives the AES-256-GCM key by PBKDF2-HMAC-SHA256 with
 * that salt and iteration count; decrypting, then inflating (zlib's deflate format), gives the
 * page's HTML, which replaces the form. A wrong passphrase fails
 * GCM's authentication check: we say so, and log nothing.
 *
 * "Remember" keeps the derived key, never the passphrase, in IndexedDB (`keys`, by page path, with
 * the salt and iteration count it was derived with), as a WebCrypto CryptoKey made
 * non-extractable: nothing on this origin can read its bytes, though a script of the origin could
 * ask the browser to decrypt with it while it is kept. A seat's salt is the same at every build
 * (only the nonce is new), so the key keeps opening the page the next build publishes. It is
 * dropped when "Forget" is pressed; when the page's salt or iteration count is not the one it was
 * made with (a new page key, a page of an older dipgen); and when it no longer opens the page
 * (the game master gave the player a new passphrase): the form then asks for the passphrase.
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
  var page = location.pathname;
  var envelope, kept = false;

  /* The keys store: {page, salt, iter, key}. IndexedDB may be off (privacy settings): then nothing is
   * remembered, and nothing fails. */
  function keys(mode, action) {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("dipgen-private", 1);
      request.onupgradeneeded = function () { request.result.createObjectStore("keys", { keyPath: "page" }); };
      request.onerror = function () { reject(request.error); };
      request.onsuccess = function () {
        var db = request.result;
        try {
          var tx = db.transaction("keys", mode), result = action(tx.objectStore("keys"));
          tx.oncomplete = function () { db.close(); resolve(result && result.result); };
          tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
        } catch (e) {
          db.close();
          reject(e);
        }
      };
    });
  }
  function stored() {
    return keys("readonly", function (s) { return s.get(page); });
  }
  function store(key) {
    return keys("readwrite", function (s) { s.put({ page: page, salt: envelope.salt, iter: envelope.iter, key: key }); })
      .then(function () { kept = true; }, function () { /* not kept */ });
  }
  function forget() {
    kept = false;
    return keys("readwrite", function (s) { s.delete(page); }).catch(function () { /* nothing kept */ });
  }

  function say(text, bad) {
    message.textContent = text;
    message.className = "pp-message" + (bad ? " pp-bad" : "");
  }

  function bytes(b64) {
    var s = atob(b64), out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  /* The same normalisation as dipgen.secrets.normalize: NFC, surrounding spaces dropped. */
  function deriveKey(passphrase) {
    var raw = new TextEncoder().encode(passphrase.normalize("NFC").trim());
    return crypto.subtle.importKey("raw", raw, "PBKDF2", false, ["deriveKey"]).then(function (base) {
      return crypto.subtle.deriveKey(
        { name: "PBKDF2", hash: "SHA-256", salt: bytes(envelope.salt), iterations: envelope.iter },
        base, { name: "AES-GCM", length: 256 }, false, ["decrypt"]);  // never extractable
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
    if (kept) {
      var lock = document.createElement("button");
      lock.type = "button";
      lock.className = "pp-lock";
      lock.textContent = "Forget me on this device";
      lock.addEventListener("click", function () {
        forget().then(function () { location.reload(); });
      });
      main.appendChild(lock);
    }
    window.scrollTo(0, 0);
  }

  function remembered() {
    /* The key kept for this page, if it was derived with the page's salt and iteration count. */
    return stored().then(function (saved) {
      if (!saved || saved.salt !== envelope.salt || saved.iter !== envelope.iter ||
          !(saved.key instanceof CryptoKey)) {
        if (saved) forget();
        throw new Error("none");
      }
      kept = true;
      return saved.key;
    });
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
        return (remember.checked ? store(key) : forget()).then(function () { return html; });
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
    try { sessionStorage.removeItem("dipgen-private:" + page); } catch (e) { /* an older dipgen kept raw keys there */ }
    remembered().then(function (key) {
      return decrypt(key).catch(function (e) {
        /* the kept key no longer opens the page: its passphrase was changed */
        forget();
        say("This device remembered an old passphrase, which no longer opens this page. " +
            "Type your passphrase (your game master may have sent you a new one).", true);
        throw e;
      });
    }).then(reveal, function () {
      input.focus();
    });
  }

  start();
})();
