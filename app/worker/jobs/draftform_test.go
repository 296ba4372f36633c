package jobs

import (
	"reflect"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/draft"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// filled sets every field of the value v points to, at any depth, to a
// value other than its zero, so that a field a conversion forgets shows.
func filled(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		filled(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		filled(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			filled(v.Field(i))
		}
	}
}

// Every field of the wire's requests a draft keeps comes back from the
// draft's form: a field added to the wire and not to the draft fails here.
func TestTheDraftsFormKeepsEveryFieldOfTheRequests(t *testing.T) {
	var open wire.Open
	filled(reflect.ValueOf(&open).Elem())
	if got := wireOpen(draftOpen(open)); !reflect.DeepEqual(got, open) {
		t.Errorf("open: got %+v, want %+v", got, open)
	}
	var prepare wire.Prepare
	filled(reflect.ValueOf(&prepare).Elem())
	if got := wirePrepare(*draftPrepare(prepare), prepare.Document); !reflect.DeepEqual(got, prepare) {
		t.Errorf("prepare: got %+v, want %+v", got, prepare)
	}
	var replace wire.Replace
	filled(reflect.ValueOf(&replace).Elem())
	if got := wireReplace(*draftReplace(replace), replace.Document); !reflect.DeepEqual(got, replace) {
		t.Errorf("replace: got %+v, want %+v", got, replace)
	}
	var limits wire.AmountLimits
	filled(reflect.ValueOf(&limits).Elem())
	if got := draftLimits(limits); !reflect.DeepEqual(got, &draft.AmountLimits{Limits: limits.Limits, Lang: limits.Lang}) ||
		reflect.TypeOf(limits).NumField() != reflect.TypeOf(*got).NumField()+1 {
		t.Errorf("limits: %+v kept as %+v", limits, got)
	}
}
