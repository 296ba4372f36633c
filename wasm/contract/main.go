//go:build js && wasm

// Command contract reads an OpenAPI file in the browser: the console's
// third WebAssembly program, loaded only when an operator loads a contract
// on the Settings page. web/contract.js runs it in a short-lived Web
// Worker. It links the OpenAPI reader (package schema/contract and YAML)
// and nothing else of the console, so that neither the page nor the
// validation worker carries the reader, and the reader starts fast.
package main

import (
	"encoding/json"
	"errors"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/schema/contract"
)

func main() {
	derive := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return reply(nil, errors.New("the contract reader takes a name, the bytes and the targets"))
		}
		data := make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(data, args[1])
		var targets []contract.Target
		if err := json.Unmarshal([]byte(args[2].String()), &targets); err != nil {
			return reply(nil, errors.New("the targets could not be read: "+err.Error()))
		}
		return reply(read(args[0].String(), data, targets))
	})
	// contract.js waits for this call before it hands over the file.
	js.Global().Call("bulkdeskContractReady", derive)
	select {}
}
