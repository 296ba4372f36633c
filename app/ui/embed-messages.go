package ui

import (
	"encoding/json"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The messages between the console and the host page that embeds it:
// the console posts only to the host's origin, and only when the server
// allows that origin; it takes a message only from its parent window and
// an allowed origin. Anything else is dropped without a word, since
// answering would tell a stranger the console is there.

// bridge is the console's side of the messages.
var bridge struct {
	sync.Mutex
	started bool
	// ctx is the context of the shell last mounted: every page has one,
	// and host messages act through it.
	ctx     app.Context
	mounted bool
	// shells counts the shells mounted, so that a page's dismount after
	// the next page's mount leaves the next page's context in place.
	shells int
	// waiting are the host's messages that came before a page mounted.
	waiting []app.Value
	// takeFile hands a host's file to the Import page while it is shown.
	takeFile func(ctx app.Context, file app.Value)
	// file is a host's file waiting for the Import page to mount.
	file app.Value
	// told remembers the events already told of each bulk, so that a
	// page drawn again does not tell them twice.
	told map[string]bool
	// height is the document's height last told.
	height int
}

// embedMounted is called by every page's shell as it mounts: the first
// one starts the bridge and tells the host the console is ready. The
// shell hands what it returns to embedDismounted.
func embedMounted(ctx app.Context) (shell int) {
	e, on := currentEmbedding()
	if !on {
		return 0
	}
	bridge.Lock()
	bridge.shells++
	shell = bridge.shells
	bridge.ctx, bridge.mounted = ctx, true
	first := !bridge.started
	bridge.started = true
	waiting := bridge.waiting
	bridge.waiting = nil
	bridge.Unlock()
	if !first {
		for _, m := range waiting {
			hostMessage(m)
		}
		return shell
	}
	markEmbedded(e)
	app.Window().Call("addEventListener", "message", app.FuncOf(func(_ app.Value, args []app.Value) any {
		onHostMessage(args[0])
		return nil
	}))
	watchHeight()
	tellEscape()
	postToHost("ready", map[string]any{"version": app.Getenv("GOAPP_VERSION"), "lang": string(consoleLang), "mode": e.Mode, "kind": e.Kind}, nil)
	for _, m := range waiting {
		hostMessage(m)
	}
	return shell
}

// embedDismounted is called by a page's shell as it goes: the host's
// messages wait for the next page.
func embedDismounted(shell int) {
	bridge.Lock()
	defer bridge.Unlock()
	if shell != 0 && shell == bridge.shells {
		bridge.mounted = false
	}
}

// onHostMessage takes a message event if it comes from the host.
func onHostMessage(ev app.Value) {
	e, _ := currentEmbedding()
	win := app.Window()
	if !ev.Get("source").Equal(win.Get("parent")) || !hostAllowed(ev.Get("origin").String()) || ev.Get("origin").String() != e.Origin {
		return
	}
	data := ev.Get("data")
	if data.Type() != app.TypeObject || data.Get("bulkdesk").Type() != app.TypeNumber || data.Get("bulkdesk").Int() != embedProtocol {
		return
	}
	bridge.Lock()
	if !bridge.mounted {
		bridge.waiting = append(bridge.waiting, data)
		bridge.Unlock()
		return
	}
	bridge.Unlock()
	hostMessage(data)
}

// hostMessage acts on a host's message on the page's turn.
func hostMessage(data app.Value) {
	bridge.Lock()
	ctx := bridge.ctx
	bridge.Unlock()
	typ := stringField(data.Get("type"))
	ctx.Dispatch(func(ctx app.Context) {
		switch typ {
		case "ping":
			postToHost("pong", map[string]any{"id": stringField(data.Get("id"))}, nil)
		case "token":
			hostToken(ctx, stringField(data.Get("token")))
		case "file":
			hostFile(ctx, data)
		case "result-workbook":
			hostResultWorkbook(ctx, stringField(data.Get("requestId")), stringField(data.Get("bulkId")))
		default:
			postToHost("error", map[string]any{"code": "message", "message": tf("The console does not know the message %q.", typ)}, nil)
		}
	})
}

// hostToken takes the operator's bearer token from the host, for this
// page's memory only, as a token typed and not kept for the tab.
func hostToken(ctx app.Context, token string) {
	c := currentConnection(ctx)
	c.Token, c.KeepForTab = token, false
	if err := setConnection(ctx, c); err != nil {
		app.Log("taking the host's token:", err)
	}
}

// hostFile reads a host's file as a dropped one, on the Import page.
func hostFile(ctx app.Context, data app.Value) {
	file, problem := hostFileValue(data.Get("file"), stringField(data.Get("fileName")))
	if problem != "" {
		postToHost("error", map[string]any{"code": "file", "message": problem}, nil)
		return
	}
	bridge.Lock()
	take := bridge.takeFile
	if take == nil {
		bridge.file = file
	}
	bridge.Unlock()
	if take != nil {
		take(ctx, file)
		return
	}
	ctx.Navigate(href("/"))
}

// hostFileValue makes a File of what the host passed: a File as it is, a
// Blob or an ArrayBuffer under the name given.
func hostFileValue(v app.Value, name string) (app.Value, string) {
	win := app.Window()
	isA := func(class string) bool { return win.Get(class).Truthy() && instanceOf(v, class) }
	switch {
	case !v.Truthy():
		return nil, t("The host page passed no file.")
	case isA("File") && name == "":
		return v, ""
	case !isA("Blob") && !isA("ArrayBuffer"):
		return nil, t("The host page passed something that is not a file: pass a File, a Blob or an ArrayBuffer.")
	case name == "":
		return nil, t("The host page passed a file without a name: give fileName, such as payments.csv.")
	}
	parts := win.Get("Array").New()
	parts.Call("push", v)
	return win.Get("File").New(parts, name), ""
}

// instanceOf reports whether v is an instance of the window's class.
func instanceOf(v app.Value, class string) bool {
	return app.Window().Get("Object").Get("prototype").Get("isPrototypeOf").Call("call", app.Window().Get(class).Get("prototype"), v).Bool()
}

// takeEmbedFile registers the Import page as the taker of the host's
// files while it is shown, and returns a file waiting for it; release
// ends the registration.
func takeEmbedFile(take func(ctx app.Context, file app.Value)) (waiting app.Value, release func()) {
	bridge.Lock()
	defer bridge.Unlock()
	bridge.takeFile = take
	waiting, bridge.file = bridge.file, nil
	return waiting, func() {
		bridge.Lock()
		defer bridge.Unlock()
		bridge.takeFile = nil
	}
}

// postToHost posts a message of type typ, with fields and, when not nil,
// blob as its "blob", to the host page: only when embedded by an origin
// the server allows.
func postToHost(typ string, fields map[string]any, blob app.Value) {
	postValue(typ, fields, func(msg app.Value) {
		if blob != nil {
			msg.Set("blob", blob)
		}
	})
}

// postValue posts a message of type typ with fields, which add sets
// values of the page on (a Blob, a parsed receipt), to the host page.
func postValue(typ string, fields map[string]any, add func(msg app.Value)) {
	e, on := currentEmbedding()
	if !on || !hostAllowed(e.Origin) {
		return
	}
	win := app.Window()
	parent := win.Get("parent")
	if !parent.Truthy() || parent.Equal(win) {
		return
	}
	msg := map[string]any{}
	for k, v := range fields {
		msg[k] = v
	}
	msg["bulkdesk"], msg["type"] = embedProtocol, typ
	b, err := json.Marshal(msg)
	if err != nil {
		app.Log("writing a message for the host page:", err)
		return
	}
	v := win.Get("JSON").Call("parse", string(b))
	add(v)
	parent.Call("postMessage", v, e.Origin)
}

// tellOnce posts an event of a bulk once for the frame's life.
func tellOnce(typ, bulkID string, fields map[string]any) {
	bridge.Lock()
	if bridge.told == nil {
		bridge.told = make(map[string]bool)
	}
	key := typ + " " + bulkID
	done := bridge.told[key]
	bridge.told[key] = true
	bridge.Unlock()
	if !done {
		postToHost(typ, fields, nil)
	}
}

// tellEscape tells the host of an Escape the console leaves unused (no
// dialog of its own open, no editor that took it): a host that shows the
// console in a dialog closes it, as Escape does on its own part.
func tellEscape() {
	doc := app.Window().Get("document")
	doc.Call("addEventListener", "keydown", app.FuncOf(func(_ app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("key").String() == "Escape" && !ev.Get("defaultPrevented").Bool() && !doc.Call("querySelector", "dialog[open]").Truthy() {
			postToHost("escape", nil, nil)
		}
		return nil
	}))
}

// watchHeight tells the host the document's height whenever it changes,
// so that a frame in a container takes the console's height.
func watchHeight() {
	win := app.Window()
	if !win.Get("ResizeObserver").Truthy() {
		return
	}
	root := win.Get("document").Get("documentElement")
	observer := win.Get("ResizeObserver").New(app.FuncOf(func(app.Value, []app.Value) any {
		h := int(root.Get("scrollHeight").Float())
		bridge.Lock()
		changed := h != bridge.height
		bridge.height = h
		bridge.Unlock()
		if changed {
			postToHost("resize", map[string]any{"height": h}, nil)
		}
		return nil
	}))
	observer.Call("observe", win.Get("document").Get("body"))
}

// stringField is a message's field as a string, "" unless it is one.
func stringField(v app.Value) string {
	if v.Type() != app.TypeString {
		return ""
	}
	return v.String()
}
