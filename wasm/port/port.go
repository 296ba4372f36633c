//go:build js && wasm

// Package port carries the page/worker messages (worker.Message) across
// the browser's postMessage, for the console's two workers: to the page,
// and between the first worker and the second.
package port

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/bulkdesk/bulkdesk/app/worker"
)

var (
	object      = js.Global().Get("Object")
	array       = js.Global().Get("Array")
	uint8Array  = js.Global().Get("Uint8Array")
	arrayBuffer = js.Global().Get("ArrayBuffer")
)

// Post sends m to target (the page, or a Worker). Data goes in an
// ArrayBuffer that is transferred, not copied.
func Post(target js.Value, m worker.Message) {
	v := object.New()
	v.Set("id", m.ID)
	v.Set("type", string(m.Type))
	if m.Job != "" {
		v.Set("job", m.Job)
	}
	if m.Body != nil {
		v.Set("body", string(m.Body))
	}
	transfer := array.New()
	if m.Data != nil {
		buf := uint8Array.New(len(m.Data))
		js.CopyBytesToJS(buf, m.Data)
		v.Set("data", buf.Get("buffer"))
		transfer.Call("push", buf.Get("buffer"))
	}
	target.Call("postMessage", v, transfer)
}

// FromJS reads a message: {id, type, job, body, data}, with body a string
// of JSON and data an ArrayBuffer.
func FromJS(v js.Value) (worker.Message, error) {
	var m worker.Message
	if v.Type() != js.TypeObject {
		return m, fmt.Errorf("a message must be an object, not %s", v.Type())
	}
	if id := v.Get("id"); id.Type() == js.TypeNumber {
		m.ID = id.Int()
	}
	m.Type = worker.Type(stringField(v, "type"))
	m.Job = stringField(v, "job")
	if body := v.Get("body"); body.Type() == js.TypeString {
		m.Body = []byte(body.String())
	}
	if data := v.Get("data"); data.Truthy() {
		if !data.InstanceOf(arrayBuffer) {
			return m, fmt.Errorf("message %d: data must be an ArrayBuffer", m.ID)
		}
		m.Data = make([]byte, data.Get("byteLength").Int())
		js.CopyBytesToGo(m.Data, uint8Array.New(data))
	}
	return m, nil
}

func stringField(v js.Value, name string) string {
	if f := v.Get(name); f.Type() == js.TypeString {
		return f.String()
	}
	return ""
}

// ErrorJSON is the body of an error message.
func ErrorJSON(code, message string) []byte {
	b, _ := json.Marshal(worker.Error{Code: code, Message: message})
	return b
}
