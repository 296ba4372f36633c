package ui

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// readContractFile reads an OpenAPI file into the contract it holds for
// each target, in a Web Worker of its own (web/contract.js): the reader is
// a WebAssembly program of its own, downloaded only now, so that neither
// this page nor the validation worker carries it. The worker ends once it
// has answered. done runs on the UI goroutine of ctx; its error is for
// people and, for a file the reader refuses, names the file and the place.
func readContractFile(ctx app.Context, file app.Value, targets []wire.ContractTarget, done func(*wire.ContractSource, error)) {
	finish := func(src *wire.ContractSource, err error) {
		ctx.Dispatch(func(app.Context) { done(src, err) })
	}
	c := loadConfig()
	if c.ContractScript == "" || c.ContractWasm == "" {
		finish(nil, errors.New("this console was served without its contract reader"))
		return
	}
	name := file.Get("name").String()
	var ok, fail app.Func
	ok = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ok.Release()
		fail.Release()
		startContractReader(c, name, args[0], targets, finish)
		return nil
	})
	fail = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ok.Release()
		fail.Release()
		finish(nil, saidError(t("the browser could not read the file")))
		return nil
	})
	file.Call("arrayBuffer").Call("then", ok, fail)
}

// startContractReader hands the file's bytes to a new reader worker.
func startContractReader(c Config, name string, buf app.Value, targets []wire.ContractTarget, finish func(*wire.ContractSource, error)) {
	w := app.Window().Get("Worker").New(c.ContractScript)
	var onMessage, onError app.Func
	end := func() {
		w.Call("terminate")
		onMessage.Release()
		onError.Release()
	}
	onMessage = app.FuncOf(func(_ app.Value, args []app.Value) any {
		data := args[0].Get("data")
		text := app.Window().Get("JSON").Call("stringify", data).String()
		end()
		finish(decodeReaderReply(name, text))
		return nil
	})
	onError = app.FuncOf(func(_ app.Value, args []app.Value) any {
		if m := args[0].Get("message"); m.Truthy() {
			app.Log("the contract reader:", m.String())
		}
		end()
		finish(nil, saidError(t("the contract reader could not start")))
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)

	list := app.Window().Get("Array").New()
	for _, t := range targets {
		o := app.Window().Get("Object").New()
		o.Set("Kind", t.Kind)
		o.Set("Method", t.Method)
		o.Set("Path", t.Path)
		list.Call("push", o)
	}
	msg := app.Window().Get("Object").New()
	msg.Set("name", name)
	msg.Set("data", buf)
	msg.Set("targets", list)
	msg.Set("wasm", c.ContractWasm)
	transfer := app.Window().Get("Array").New()
	transfer.Call("push", buf)
	w.Call("postMessage", msg, transfer)
}

// readerReply is what web/contract.js posts.
type readerReply struct {
	Error    string `json:"error"`
	Contract *struct {
		Source, Title, Version string
		Schemas                []struct {
			Kind string
			JSON json.RawMessage
		}
		Missing []wire.ContractTarget
		Notes   []wire.ContractNote
	} `json:"contract"`
}

// decodeReaderReply turns the reader's answer into the source JobContract
// takes.
func decodeReaderReply(name, text string) (*wire.ContractSource, error) {
	var r readerReply
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		return nil, fmt.Errorf("the contract reader's answer could not be read: %w", err)
	}
	switch {
	case r.Error != "":
		// The reader's finding names the file and the place in it, in
		// its own words: what the person who wrote the contract needs,
		// word for word.
		return nil, saidError(r.Error)
	case r.Contract == nil:
		return nil, fmt.Errorf("%s: the contract reader gave no answer", name)
	}
	c := r.Contract
	src := &wire.ContractSource{Name: c.Source, Title: c.Title, Version: c.Version, Notes: c.Notes,
		Schemas: make(map[string]json.RawMessage, len(c.Schemas))}
	for _, s := range c.Schemas {
		src.Schemas[s.Kind] = s.JSON
	}
	for _, m := range c.Missing {
		src.Missing = append(src.Missing, m.Kind)
	}
	return src, nil
}
