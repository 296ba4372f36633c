// The import page before the console's WebAssembly runs. The server
// renders the page's HTML; this script makes its kind picker, file input
// and drop zone take a file at once, and sends the file to the worker
// that app.js started (self.bulkdeskEarlyWorker) as the page's own code
// would: first the settings the page sends its worker (strict, language),
// then the file to open, with the kind chosen, the time zone kept in this
// browser and whether to build it at once. The page's program, once it
// runs, adopts the worker and the job (app/ui/import-early.go) and goes
// on from there; everything this script learns is kept in
// self.bulkdeskEarlyImport for it, since the program draws the page anew.
// The messages are those of app/wire (envelope.go, review.go,
// contract.go).
"use strict";

// bulkdeskRefreshPages draws again the pages the service worker keeps for
// offline use, once the operator chose another language in Settings: the
// server draws each page in the operator's language, and a page kept in
// the former one would be the first the operator reads. Pages are told
// from the console's other files by their type.
self.bulkdeskRefreshPages = async () => {
  if (!self.caches) {
    return;
  }
  try {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const kept = await cache.match(request);
        if (!kept || !(kept.headers.get("Content-Type") || "").startsWith("text/html")) {
          continue;
        }
        const fresh = await fetch(request.url, { credentials: "same-origin", cache: "no-store" });
        if (fresh.ok) {
          await cache.put(request, fresh);
        }
      }
    }
  } catch {
    // Offline, or the cache is gone: the pages are drawn at the next install.
  }
};

// A page in a host page's frame (embed.js) shows no navigation from the
// start; the program keeps the embedding for the frame's life
// (app/ui/embed.go, which marks the page the same way).
(() => {
  const q = new URLSearchParams(location.search);
  let e = q.get("embed") === "1" ? { mode: q.get("mode"), theme: q.get("theme") } : null;
  if (!e) {
    try {
      e = JSON.parse(sessionStorage.getItem("bulkdesk.embed") || "null");
    } catch {
      return; // no sessionStorage (blocked by settings): the program decides
    }
  }
  if (e) {
    const root = document.documentElement;
    root.setAttribute("data-embed", e.mode === "validate" ? "validate" : "submit");
    const dark = e.theme === "dark" || (e.theme !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
    root.setAttribute("data-theme", dark ? "dark" : "light");
  }
})();

(() => {
  const ew = self.bulkdeskEarlyWorker;
  const input = document.getElementById("request-file");
  const kindPicker = document.getElementById("kind");
  if (!ew || !input || !kindPicker) {
    return; // another page, or no worker: the program does it all
  }

  // What the page's program adopts: the kind chosen, the job sent (its
  // id, the file's name, whether it builds at once) or the pasted rows
  // to read, and the text typed in the paste box.
  const state = { kind: "", job: null, paste: "", readPasted: false, closed: false };
  self.bulkdeskEarlyImport = state;
  ew.nextID = ew.nextID || 0;

  // The remembered readings (app/ui/remembered-mapping.go) decide whether
  // a file is built as it is opened: only when none is kept. Looked up
  // without creating the database, which the page's program creates.
  const nothingRemembered = lookUpRemembered();

  const storage = (key) => {
    try {
      return localStorage.getItem(key) || "";
    } catch {
      return "";
    }
  };

  // Read now, while the page waits for its program: the browser loads
  // the site's storage on first use, which would hold up the program's
  // start instead.
  storage("bulkdesk-lang");

  // The language the console speaks (app/ui/words.go chooseLanguage).
  const language = () => {
    const spoken = ["en", "de", "fr"];
    const parse = (s) => {
      const primary = String(s).trim().toLowerCase().split(/[-_]/)[0];
      return spoken.includes(primary) ? primary : "";
    };
    const chosen = parse(storage("bulkdesk-lang"));
    if (chosen) {
      return chosen;
    }
    for (const l of navigator.languages || []) {
      if (parse(l)) {
        return parse(l);
      }
    }
    return "en";
  };

  const post = (message, data) => {
    if (data) {
      message.data = data;
    }
    ew.worker.postMessage(message);
  };

  const request = (job, body, data) => {
    ew.init(); // the worker's program starts with its first job
    ew.nextID++;
    post({ id: ew.nextID, type: "request", job, body: JSON.stringify(body) }, data);
    return ew.nextID;
  };

  let contractSent = false;
  // cancelJob cancels the job sent, or forgets the one not sent yet.
  const cancelJob = () => {
    if (state.job && state.job.id > 0) {
      post({ id: state.job.id, type: "cancel" });
    }
    state.job = null;
  };

  const chosenKind = () => {
    const o = kindPicker.selectedOptions[0];
    return (o && o.getAttribute("value")) || "";
  };

  // open sends the file to the worker, replacing the one sent before;
  // chosen says the operator chose it (not a kind chosen after it).
  const open = async (file, chosen) => {
    if (chosen) {
      performance.mark("bulkdesk:file-chosen");
    }
    cancelJob();
    state.readPasted = false;
    // Until its id is set, the job waits here: the program, should it
    // start meanwhile, opens the file itself.
    const job = { id: 0, file, fileName: file.name, kind: chosenKind(), auto: false };
    state.job = job;
    showBusy(file.name);
    job.auto = await nothingRemembered;
    if (state.job !== job || state.closed) {
      return; // replaced meanwhile, or the program took over
    }
    if (!contractSent) {
      contractSent = true;
      request("contract", { strict: storage("bulkdesk-strict") === "on", lang: language() });
    }
    const req = { fileName: file.name };
    if (job.kind) {
      req.kind = job.kind;
    }
    const zone = storage("bulkdesk-time-zone");
    if (zone) {
      req.timeZone = zone;
    }
    if (job.auto) {
      req.auto = true;
    }
    // A File is posted as it is: the worker reads it (web/worker.js).
    job.id = request("open", req, file);
  };

  // showBusy draws the status line as the page's program does while it
  // reads, in the words of the page: the server draws the page in the
  // operator's language, with these words in the status line's data
  // (app/ui/import-page.go).
  const words = (document.getElementById("status") || {}).dataset || {};
  const showBusy = (what) => {
    const label = (words.reading || "Reading {file}").replace("{file}", what);
    const status = document.getElementById("status");
    if (!status) {
      return;
    }
    const p = document.createElement("p");
    p.textContent = label;
    const bar = document.createElement("progress");
    bar.id = "progress";
    bar.setAttribute("aria-label", label);
    status.className = "status status-busy";
    status.replaceChildren(p, bar);
    const announcer = document.getElementById("announcer");
    if (announcer) {
      announcer.textContent = label + "…";
    }
  };

  // The worker's progress, shown until the program takes over.
  ew.onheard = (message) => {
    const bar = document.getElementById("progress");
    if (!bar || !state.job || message.id !== state.job.id || message.type !== "progress") {
      return;
    }
    try {
      const p = JSON.parse(message.body);
      if (p.total > 0) {
        bar.max = p.total;
        bar.value = p.done;
      }
    } catch {
      // A progress that cannot be read shows none.
    }
  };

  const live = () => !state.closed && self.bulkdeskEarlyImport === state;

  kindPicker.addEventListener("change", () => {
    if (!live()) {
      return;
    }
    state.kind = chosenKind();
    // A file sent already is read again as the kind chosen.
    if (state.job && state.job.kind !== state.kind) {
      open(state.job.file, false);
    }
  });

  input.addEventListener("change", () => {
    if (!live()) {
      return;
    }
    const file = input.files && input.files[0];
    if (file) {
      open(file, true);
    }
    // Picking the same file again, after fixing it, is a change too.
    input.value = "";
  });

  const zone = input.closest(".drop-zone");
  if (zone) {
    zone.addEventListener("dragover", (event) => {
      if (live()) {
        event.preventDefault(); // else the browser opens the file
        zone.classList.add("drop-zone-over");
      }
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("drop-zone-over"));
    zone.addEventListener("drop", (event) => {
      if (!live()) {
        return;
      }
      event.preventDefault();
      zone.classList.remove("drop-zone-over");
      const files = event.dataTransfer && event.dataTransfer.files;
      if (files && files.length > 0) {
        open(files[0], true);
      }
    });
  }

  // The pasted rows are the program's to read: it is told to, and reads
  // them as it starts.
  const paste = document.getElementById("paste-rows");
  const readPasted = document.getElementById("read-pasted");
  if (paste && readPasted) {
    paste.addEventListener("input", () => {
      state.paste = paste.value;
    });
    readPasted.addEventListener("click", () => {
      if (!live()) {
        return;
      }
      cancelJob();
      state.paste = paste.value;
      state.readPasted = true;
      if (state.paste) {
        showBusy(words.pasted || "Pasted rows");
      }
    });
  }

  state.kind = chosenKind();
  performance.mark("bulkdesk:interactive");

  // lookUpRemembered resolves to true when no reading is remembered in
  // this browser: no database of them, or an empty one.
  function lookUpRemembered() {
    const name = "bulkdesk-mappings";
    if (!self.indexedDB || !indexedDB.databases) {
      return Promise.resolve(false);
    }
    return indexedDB
      .databases()
      .then((dbs) => {
        if (!dbs.some((db) => db.name === name)) {
          return true;
        }
        return new Promise((resolve) => {
          const req = indexedDB.open(name);
          // It was deleted meanwhile: not created here, with no store.
          req.onupgradeneeded = () => req.transaction.abort();
          req.onerror = () => resolve(false);
          req.onblocked = () => resolve(false);
          req.onsuccess = () => {
            const db = req.result;
            try {
              const count = db.transaction("mappings").objectStore("mappings").count();
              count.onsuccess = () => {
                db.close();
                resolve(count.result === 0);
              };
              count.onerror = () => {
                db.close();
                resolve(false);
              };
            } catch {
              db.close();
              resolve(false);
            }
          };
        });
      })
      .catch(() => false);
  }
})();
