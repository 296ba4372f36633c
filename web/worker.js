// The console's Web Workers. It loads Go's WebAssembly support, starts
// the program whose URL the first message ("init") names and hands it the
// messages that follow; messages that arrive while the program loads wait
// in a queue. The page starts it for worker.wasm, naming in "second" the
// program of the second worker (apiworker.wasm), which worker.wasm starts
// from this same script when it needs it. The protocol is described in
// app/wire/doc.go, the workers in app/worker/doc.go.
"use strict";

importScripts("../wasm_exec.js");

// Go's runtime writes a panic to the console; the last lines are kept so
// that the message of a program that stopped says why.
const lastLines = [];
const consoleLog = console.log.bind(console);
console.log = (...args) => {
  lastLines.push(args.join(" "));
  if (lastLines.length > 40) {
    lastLines.shift();
  }
  consoleLog(...args);
};

function why() {
  const i = lastLines.findIndex((line) => line.startsWith("panic:") || line.startsWith("fatal error:"));
  return i < 0 ? "" : ": " + lastLines.slice(i, i + 3).join(" ");
}

const waiting = [];
// deliver hands a message to the program, or queues it until the
// program takes messages.
let deliver = (message) => waiting.push(message);

// A message whose data is a File (the page's early script posts the file
// chosen as it is) reaches the program with the file's bytes, as an
// ArrayBuffer, as the page's program sends them; the messages after it
// wait for it, so that they keep their order.
let reading = null;
function take(message) {
  const data = message && message.data;
  if (!reading && !(typeof Blob !== "undefined" && data instanceof Blob)) {
    deliver(message);
    return;
  }
  reading = (reading || Promise.resolve())
    .then(async () => {
      if (message.data instanceof Blob) {
        try {
          message.data = await message.data.arrayBuffer();
        } catch (err) {
          // The page says it in the operator's words (workerclient).
          self.postMessage({ id: message.id, type: "error", body: JSON.stringify({ code: "unreadable-file", message: String(err) }) });
          return;
        }
      }
      deliver(message);
    })
    .then(() => {
      if (reading === current) {
        reading = null;
      }
    });
  const current = reading;
}

self.onmessage = (event) => {
  const message = event.data;
  if (message && message.type === "init") {
    if (message.second) {
      self.bulkdeskSecondWasm = message.second;
    }
    start(message.body);
    return;
  }
  take(message);
};

// Called by the program once it takes messages.
self.bulkdeskWorkerReady = (receive) => {
  deliver = receive;
  for (const message of waiting.splice(0)) {
    receive(message);
  }
};

async function start(url) {
  try {
    const go = new Go();
    const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
    await go.run(instance);
    fatal("the engine stopped" + why());
  } catch (err) {
    fatal("the engine could not start: " + err);
  }
}

// fatal ends the worker's jobs. Its message (the runtime's panic) is not
// for people: an "internal" error without a reference, which the page
// writes to the browser's console under a reference the screen shows.
function fatal(message) {
  self.postMessage({ id: 0, type: "fatal", body: JSON.stringify({ code: "internal", message }) });
}
