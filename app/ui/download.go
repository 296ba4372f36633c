package ui

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// download hands bytes the worker produced (an ArrayBuffer) to the browser
// as a file to save, without a round trip to the server: the console
// works offline, and the operator's data never leaves the browser.
func download(data app.Value, fileName, mediaType string) {
	win := app.Window()
	url := win.Get("URL").Call("createObjectURL", blobOf(data, mediaType))
	doc := win.Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", downloadName(fileName))
	a.Set("hidden", true)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	// The browser reads the blob when the download starts; release it
	// once it surely has.
	go func() {
		time.Sleep(time.Minute)
		win.Get("URL").Call("revokeObjectURL", url)
	}()
}

// readText reads a File as text and calls done with it, or with the
// browser's error.
func readText(file app.Value, done func(text string, err string)) {
	var ok, fail app.Func
	release := func() { ok.Release(); fail.Release() }
	ok = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		done(args[0].String(), "")
		return nil
	})
	fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		// The browser's own words are its language's, not the
		// operator's: the console keeps them for the developer.
		if m := args[0].Get("message"); m.Truthy() {
			app.Log("reading the file:", m.String())
		}
		done("", t("the browser could not read the file"))
		return nil
	})
	file.Call("text").Call("then", ok, fail)
}
