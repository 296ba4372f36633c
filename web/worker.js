// The console's Web Worker. It loads Go's WebAssembly support, starts
// worker.wasm (whose URL the page sends first, in an "init" message) and
// hands it the page's messages. Messages that arrive while the program
// loads wait in a queue. The protocol is described in app/worker/doc.go.
"use strict";

importScripts("../wasm_exec.js");

const waiting = [];

self.onmessage = (event) => {
  const message = event.data;
  if (message && message.type === "init") {
    start(message.body);
    return;
  }
  waiting.push(message);
};

// Called by worker.wasm once it takes messages.
self.bulkdeskWorkerReady = (receive) => {
  self.onmessage = (event) => receive(event.data);
  for (const message of waiting.splice(0)) {
    receive(message);
  }
};

async function start(url) {
  try {
    const go = new Go();
    const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    await go.run(instance);
    fatal("the validation engine stopped");
  } catch (err) {
    fatal("the validation engine could not start: " + err);
  }
}

function fatal(message) {
  self.postMessage({ id: 0, type: "fatal", body: JSON.stringify({ code: "unavailable", message }) });
}
