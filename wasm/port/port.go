//go:build js && wasm

// Package port carries the page/worker messages (wire.Message) across
// the browser's postMessage, for the console's two workers: to the page,
// and between the first worker and the second.
package port

import (
	"fmt"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/wire"
)

var (
	object      = js.Global().Get("Object")
	array       = js.Global().Get("Array")
	uint8Array  = js.Global().Get("Uint8Array")
	arrayBuffer = js.Global().Get("ArrayBuffer")
)

// Post sends m to target (the page, or a Worker). Data goes in an
// ArrayBuffer that is transferred, not copied.
func Post(target js.Value, m wire.Message) {
	v := object.New()
	wire.EncodeEnvelope(m, func(field string, value any) { v.Set(field, value) })
	transfer := array.New()
	if m.Data != nil {
		buf := uint8Array.New(len(m.Data))
		js.CopyBytesToJS(buf, m.Data)
		v.Set(wire.FieldData, buf.Get("buffer"))
		transfer.Call("push", buf.Get("buffer"))
	}
	target.Call("postMessage", v, transfer)
}

// FromJS reads a message (see wire.DecodeEnvelope), with data an
// ArrayBuffer.
func FromJS(v js.Value) (wire.Message, error) {
	if v.Type() != js.TypeObject {
		return wire.Message{}, fmt.Errorf("a message must be an object, not %s", v.Type())
	}
	m := wire.DecodeEnvelope(envelope{v})
	if data := v.Get(wire.FieldData); data.Truthy() {
		if !data.InstanceOf(arrayBuffer) {
			return m, fmt.Errorf("message %d: data must be an ArrayBuffer", m.ID)
		}
		m.Data = make([]byte, data.Get("byteLength").Int())
		js.CopyBytesToGo(m.Data, uint8Array.New(data))
	}
	return m, nil
}

// envelope reads a message's fields for wire.DecodeEnvelope.
type envelope struct{ v js.Value }

func (e envelope) String(field string) (string, bool) {
	f := e.v.Get(field)
	if f.Type() != js.TypeString {
		return "", false
	}
	return f.String(), true
}

func (e envelope) Int(field string) (int, bool) {
	f := e.v.Get(field)
	if f.Type() != js.TypeNumber {
		return 0, false
	}
	return f.Int(), true
}

// Listen hands receive every message the page (or the first worker) sends
// this worker's program, then tells the sender it takes jobs. worker.js
// queued the messages that came while the program loaded: it hands them
// over first, then every new one as it comes. A message that cannot be
// read is answered with an error.
func Listen(self js.Value, receive func(wire.Message)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		m, err := FromJS(args[0])
		if err != nil {
			// An internal error without a reference: the page puts its
			// text in the browser's console under one of its own.
			Post(self, wire.Message{ID: m.ID, Type: wire.TypeError, Body: wire.ErrorBody(wire.CodeInternal, err.Error())})
			return nil
		}
		receive(m)
		return nil
	})
	self.Call("bulkdeskWorkerReady", f)
	Post(self, wire.Message{Type: wire.TypeReady})
}
