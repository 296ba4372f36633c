package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// object stands for the JavaScript object postMessage carries.
type object map[string]any

func (o object) String(field string) (string, bool) {
	s, ok := o[field].(string)
	return s, ok
}

func (o object) Int(field string) (int, bool) {
	n, ok := o[field].(int)
	return n, ok
}

func encode(m Message) object {
	o := object{}
	EncodeEnvelope(m, func(field string, value any) {
		if _, dup := o[field]; dup {
			panic("field " + field + " set twice")
		}
		o[field] = value
	})
	return o
}

func TestEnvelopeRoundTrip(t *testing.T) {
	for _, m := range []Message{
		{ID: 7, Type: TypeRequest, Job: JobOpen, Body: []byte(`{"fileName":"pay.csv"}`)},
		{ID: 7, Type: TypeProgress, Body: []byte(`{"phase":"reading","done":1,"total":2}`)},
		{ID: 7, Type: TypeCancel},
		{Type: TypeReady},
		{ID: 3, Type: TypeStorageReply, Body: []byte(`{}`)},
	} {
		o := encode(m)
		if got := DecodeEnvelope(o); !reflect.DeepEqual(got, m) {
			t.Errorf("%+v came back as %+v (sent %v)", m, got, o)
		}
	}
}

func TestEnvelopeFields(t *testing.T) {
	o := encode(Message{ID: 1, Type: TypeRequest, Job: JobRows, Body: []byte("{}"), Data: []byte{1}})
	want := object{FieldID: 1, FieldType: "request", FieldJob: "rows", FieldBody: "{}"}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("encoded %v, want %v (Data is each side's to move)", o, want)
	}
	names := []string{FieldID, FieldType, FieldJob, FieldBody, FieldData, FieldSecond}
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" || seen[n] {
			t.Errorf("field name %q is empty or used twice", n)
		}
		seen[n] = true
	}
}

// A message of the wrong shape reads as fields missing, not as a panic:
// the worker may post something the page does not know yet.
func TestDecodeEnvelopeWrongTypes(t *testing.T) {
	got := DecodeEnvelope(object{FieldID: "7", FieldType: 3, FieldBody: 1})
	if got.ID != 0 || got.Type != "" || got.Body != nil {
		t.Errorf("got %+v", got)
	}
}

func TestErrorBody(t *testing.T) {
	e := DecodeError(ErrorBody(CodeGone, "document 3 is gone"))
	if e.Code != CodeGone || e.Message != "document 3 is gone" {
		t.Errorf("got %+v", e)
	}
	for _, body := range []string{"", "nonsense", `{"message":"no code"}`, `[1]`} {
		if e := DecodeError([]byte(body)); e.Code != CodeInternal {
			t.Errorf("%q read as %+v, want code %q", body, e, CodeInternal)
		}
	}
	var e2 Error
	if err := json.Unmarshal(ErrorBody(CodeCanceled, `say "why"`), &e2); err != nil || e2.Message != `say "why"` {
		t.Errorf("ErrorBody is not JSON of an Error: %v %+v", err, e2)
	}
}

func TestDecodeBody(t *testing.T) {
	p, err := DecodeBody[Progress]([]byte(`{"phase":"validating","done":4000,"total":10000}`))
	if err != nil || p != (Progress{Phase: PhaseValidating, Done: 4000, Total: 10000}) {
		t.Errorf("got %+v, %v", p, err)
	}
	if _, err := DecodeBody[Progress]([]byte(`[`)); err == nil {
		t.Error("a broken body decoded")
	}
}
