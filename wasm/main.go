// Command wasm is the console's page: the go-app user interface compiled to
// WebAssembly (GOOS=js GOARCH=wasm). It holds the components only; the
// validator runs in a separate, worker-side program (wasm/worker), and the
// server, which also renders the first HTML of each page, lives in
// cmd/bulkdesk. Keeping both out keeps this file small enough to start fast.
package main

import (
	"time"

	"github.com/bulkdesk/bulkdesk/app/ui"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	// The browser benchmark times the start of the console up to here.
	app.Window().Get("performance").Call("mark", "bulkdesk:main")
	// The page the server rendered takes input already (web/early.js):
	// the start yields to the browser between its parts, the runtime's
	// and the packages' start, then go-app's, so that none holds the
	// page's thread long. Sleep(0) would not yield.
	time.Sleep(time.Millisecond)
	ui.Register()
	time.Sleep(time.Millisecond)
	app.RunWhenOnBrowser()
}
