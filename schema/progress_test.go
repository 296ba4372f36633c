package schema_test

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/schema"
)

func TestCheckRequestContextReportsProgressAndMatchesCheckRequest(t *testing.T) {
	v := fixture.Validator()
	k := fixture.Kind("transfers")
	// An error in the first element, so that the reports compared are not empty.
	body := bytes.Replace(fixture.November.Body(250), []byte(`"currency":"EUR"`), []byte(`"currency":"eur"`), 1)

	var calls [][2]int
	got, err := v.CheckRequestContext(context.Background(), k, body, func(done, total int) {
		calls = append(calls, [2]int{done, total})
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 250}, {100, 250}, {200, 250}, {250, 250}}
	if !reflect.DeepEqual(calls, want) {
		t.Errorf("progress calls = %v, want %v", calls, want)
	}
	plain, err := v.CheckRequest(k, body)
	if err != nil {
		t.Fatal(err)
	}
	if got.Valid() {
		t.Fatal("the broken currency was not reported")
	}
	if !reflect.DeepEqual(got, plain) {
		t.Errorf("CheckRequestContext report differs from CheckRequest's:\n%+v\n%+v", got, plain)
	}
}

func TestValidateRequestContextStopsWhenCanceled(t *testing.T) {
	v := fixture.Validator()
	k := fixture.Kind("transfers")
	doc, _, err := schema.DecodeJSON(fixture.November.Body(1000))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	last := 0
	r, err := v.ValidateRequestContext(ctx, k, doc.([]any), func(done int) {
		last = done
		if done >= 300 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("got report %v, error %v; want no report and context.Canceled", r, err)
	}
	if last != 300 {
		t.Errorf("validation went on to element %d after the cancel at 300", last)
	}
}
