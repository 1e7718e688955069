/* Live reload under `mkdocs serve`, within the pages' Content-Security-Policy.
 *
 * MkDocs's server adds an inline script to every page it serves that asks it, by a long poll of
 * /livereload/<epoch>/<id>, whether the site was rebuilt since the page was made. The pages'
 * policy (script-src 'self') forbids inline scripts, so that script never runs. dipgen adds this
 * file to the pages under serve only (never to a built site): it reads the two numbers from the
 * inline script's text, which the browser keeps though it does not run it, and asks the same
 * question. Without live reload (serve --no-livereload) there is no such script, and it does
 * nothing.
 */
(function () {
  "use strict";
  var request = null;
  var timer = null;

  function served() {
    var scripts = document.querySelectorAll("script:not([src])");
    for (var i = scripts.length - 1; i >= 0; i--) {
      var found = /livereload\((\d+),\s*(\d+)\)/.exec(scripts[i].textContent || "");
      if (found) return { epoch: Number(found[1]), id: found[2] };
    }
    return null;
  }

  function stop() {
    var asked = request;
    request = null;
    if (asked) asked.abort();
    if (timer) clearTimeout(timer);
    timer = null;
  }

  function ask(page) {
    stop();
    var asked = request = new XMLHttpRequest();
    asked.onloadend = function () {
      if (request !== asked) return;  // stopped: the page is hidden or going
      if (Number(asked.responseText) > page.epoch) {
        location.reload();
      } else {
        request = null;
        timer = setTimeout(function () { ask(page); }, asked.status === 200 ? 0 : 3000);
      }
    };
    asked.open("GET", "/livereload/" + page.epoch + "/" + page.id);
    asked.send();
  }

  function start() {
    var page = served();
    if (!page) return;
    if (document.visibilityState === "visible") ask(page);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") ask(page); else stop();
    });
    window.addEventListener("beforeunload", stop);
  }

  if (document.readyState === "complete") start();
  else window.addEventListener("load", start);
})();
