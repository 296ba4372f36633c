// embed.js shows the Bulkdesk console in a frame of a portal's page and
// tells the page what happens in it: embedding protocol, version 1
// (cmd/bulkdesk/EMBEDDING.md). Load it from <console URL>embed.js.
// Only messages {bulkdesk: 1, type, ...} from the frame this script made,
// at the console's origin, are heard; the page's go to that origin alone.
// Nothing is logged.
(function () {
  "use strict";
  if (window.Bulkdesk && window.Bulkdesk.protocol === 1) return;
  const V = 1;
  const src = document.currentScript ? document.currentScript.src : "";
  const scriptBase = src ? src.replace(/embed\.js(?:[?#].*)?$/, "") : "";
  const closeLabels = { en: "Close", de: "Schließen", fr: "Fermer" };
  const choices = { lang: ["en", "de", "fr"], mode: ["validate", "submit"], theme: ["light", "dark", "auto"] };
  let requests = 0;

  const fail = (what) => { throw new TypeError("Bulkdesk: " + what); };

  // The console's URL ends in "/": a redirect to it would drop the query.
  function base(url) {
    const u = new URL(url || scriptBase, location.href);
    u.search = u.hash = "";
    if (!u.pathname.endsWith("/")) u.pathname += "/";
    return u;
  }

  function check(o) {
    if (!o || typeof o !== "object") fail("open needs options");
    if (Boolean(o.container) === Boolean(o.modal)) fail("give either container or modal: true");
    if (o.container && !(o.container instanceof Element)) fail("container must be an Element");
    for (const k of Object.keys(choices)) {
      if (o[k] !== undefined && !choices[k].includes(o[k])) fail(k + " must be one of " + choices[k].join(", "));
    }
    if (!scriptBase && !o.url) fail("give url");
  }

  function fileMessage(file, fileName) {
    if (!(file instanceof Blob) && !(file instanceof ArrayBuffer)) fail("a file is a File, Blob or ArrayBuffer");
    const name = fileName || (file instanceof File ? file.name : "");
    if (!name) fail("give the fileName");
    return { bulkdesk: V, type: "file", file: file, fileName: String(name) };
  }

  function modal(o, frame) {
    const backdrop = document.createElement("div");
    Object.assign(backdrop.style, { position: "fixed", inset: "0", zIndex: "2147483000", background: "rgba(0,0,0,.45)", display: "flex", alignItems: "center", justifyContent: "center" });
    const dialog = document.createElement("div");
    for (const [k, v] of [["role", "dialog"], ["aria-modal", "true"], ["aria-label", "Bulkdesk"]]) dialog.setAttribute(k, v);
    Object.assign(dialog.style, { width: "min(1200px, 96vw)", height: "92vh", background: "#fff", borderRadius: "6px", overflow: "hidden", display: "flex", flexDirection: "column" });
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = closeLabels[o.lang] || closeLabels.en;
    Object.assign(close.style, { alignSelf: "flex-end", margin: "6px 8px", font: "inherit" });
    frame.style.flex = "1";
    dialog.append(close, frame);
    backdrop.append(dialog);
    return { backdrop, close };
  }

  function open(o) {
    check(o);
    const b = base(o.url);
    const origin = b.origin;
    const q = new URLSearchParams({ embed: "1", origin: location.origin });
    if (o.kind) q.set("kind", String(o.kind));
    if (o.backOffice) q.set("backOffice", "1");
    for (const k of Object.keys(choices)) if (o[k] !== undefined) q.set(k, o[k]);
    const frame = document.createElement("iframe");
    frame.title = "Bulkdesk";
    frame.src = b.href + "?" + q;
    Object.assign(frame.style, { display: "block", width: "100%", border: "0" });
    const fixed = o.height !== undefined && o.height !== null;
    if (o.container) frame.style.height = fixed ? (typeof o.height === "number" ? o.height + "px" : String(o.height)) : "480px";

    const listeners = new Map();
    const pending = new Map();
    const queue = [];
    let token = o.token ? String(o.token) : "";
    let firstFile = o.file ? fileMessage(o.file, o.fileName) : null;
    let ready = false, closed = false, shell = null, returnFocus = null;
    const send = (m) => frame.contentWindow.postMessage(m, origin);
    const post = (m) => { if (!closed) (ready ? send(m) : queue.push(m)); };
    const call = (fn, m) => { try { fn(m); } catch (err) { setTimeout(() => { throw err; }); } };

    function heard(event) {
      const m = event.data;
      if (closed || event.source !== frame.contentWindow || event.origin !== origin ||
          !m || typeof m !== "object" || m.bulkdesk !== V || typeof m.type !== "string") return;
      if (m.type === "ready") {
        ready = true;
        // At every ready: a reload inside the frame forgets the token.
        if (token) send({ bulkdesk: V, type: "token", token: token });
        if (firstFile) send(firstFile);
        firstFile = null;
        queue.splice(0).forEach(send);
      } else if (m.type === "resize" && o.container && !fixed && Number.isFinite(m.height) && m.height >= 0) {
        frame.style.height = Math.ceil(Math.min(m.height, 1e6)) + "px";
      } else if ((m.type === "result-workbook" || m.type === "error") && pending.has(m.requestId)) {
        const p = pending.get(m.requestId);
        pending.delete(m.requestId);
        if (m.type === "result-workbook" && m.blob instanceof Blob) {
          p.resolve(m.blob);
        } else {
          const err = new Error(String(m.message || "the console sent no workbook"));
          err.code = m.code || "workbook";
          p.reject(err);
        }
      }
      if (typeof o.onEvent === "function") call(o.onEvent, m);
      for (const k of [m.type, "*"]) Array.from(listeners.get(k) || []).forEach((fn) => call(fn, m));
      // Escape inside the console, which it left unused: the dialog closes.
      if (m.type === "escape" && shell) handle.close();
    }

    function onKey(event) {
      if (event.key === "Escape") {
        event.preventDefault();
        handle.close();
      } else if (event.key === "Tab") {
        // Focus stays in the dialog: its close button and the frame.
        event.preventDefault();
        (document.activeElement === shell.close ? frame : shell.close).focus();
      }
    }

    const handle = {
      frame: frame,
      on(type, fn) {
        if (typeof fn !== "function") fail("on needs a function");
        if (!listeners.has(type)) listeners.set(type, new Set());
        listeners.get(type).add(fn);
        return handle;
      },
      off(type, fn) {
        if (listeners.has(type)) listeners.get(type).delete(fn);
        return handle;
      },
      close() {
        if (closed) return;
        closed = true;
        window.removeEventListener("message", heard);
        document.removeEventListener("keydown", onKey, true);
        pending.forEach((p) => p.reject(new Error("the console was closed")));
        pending.clear();
        (shell ? shell.backdrop : frame).remove();
        if (returnFocus && returnFocus.focus) returnFocus.focus();
      },
      sendFile(file, fileName) {
        post(fileMessage(file, fileName));
      },
      setToken(value) {
        token = value ? String(value) : "";
        if (ready) post({ bulkdesk: V, type: "token", token: token });
      },
      resultWorkbook(bulkId) {
        if (closed) return Promise.reject(new Error("the console was closed"));
        const requestId = "workbook-" + ++requests + "-" + Math.random().toString(36).slice(2);
        return new Promise((resolve, reject) => {
          pending.set(requestId, { resolve, reject });
          post({ bulkdesk: V, type: "result-workbook", requestId: requestId, bulkId: String(bulkId) });
        });
      },
    };

    window.addEventListener("message", heard);
    if (o.container) {
      o.container.append(frame);
    } else {
      returnFocus = document.activeElement;
      shell = modal(o, frame);
      shell.close.addEventListener("click", handle.close);
      document.addEventListener("keydown", onKey, true);
      document.body.append(shell.backdrop);
      frame.addEventListener("load", () => closed || frame.focus(), { once: true });
    }
    return handle;
  }

  window.Bulkdesk = Object.freeze({ protocol: V, open: open });
})();
