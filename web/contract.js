// The console's reader of OpenAPI files: a short-lived Web Worker that the
// Settings page starts when the operator loads a contract, and ends once
// it has answered. It runs contract.wasm (wasm/contract), which alone
// links the reader, so that the page and the validation worker stay small.
//
// The page posts {name, data: ArrayBuffer, targets: [{Kind, Method, Path}],
// wasm: URL of contract.wasm}; the worker answers {contract: {...}} with
// each schema as JSON, or {error: "<file>: <place>: <what>"}.
"use strict";

importScripts("../wasm_exec.js");

let derive = null;
let loading = null;

// Called by contract.wasm once it takes files.
self.bulkdeskContractReady = (f) => {
  derive = f;
};

function load(url) {
  if (!loading) {
    loading = (async () => {
      const go = new Go();
      const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
      // go.run resolves only when the program exits; the program calls
      // bulkdeskContractReady before it waits, during this first turn.
      go.run(instance);
      if (!derive) {
        throw new Error("contract.wasm did not start");
      }
    })();
  }
  return loading;
}

self.onmessage = async (event) => {
  const { name, data, targets, wasm } = event.data || {};
  try {
    await load(wasm);
    const reply = derive(String(name), new Uint8Array(data), JSON.stringify(targets || []));
    self.postMessage(JSON.parse(reply));
  } catch (err) {
    self.postMessage({ error: "the contract reader could not run: " + err });
  }
};
