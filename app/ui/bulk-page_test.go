package ui

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// placesOf is where each component sits among a parent's parts, and
// whether every part up to the last component takes exactly one place:
// go-app matches a parent's children by place, so a part before a
// component that is sometimes absent (nil, an app.If) moves it, and
// go-app mounts it afresh, its state lost.
func placesOf(parts []app.UI) (map[string]int, error) {
	places := make(map[string]int)
	last := -1
	for i, part := range parts {
		if _, ok := part.(app.Composer); ok {
			places[reflect.TypeOf(part).String()] = i
			last = i
		}
	}
	return places, onePlaceEach(parts[:last+1])
}

// onePlaceEach checks that each part takes one place, shown or not.
func onePlaceEach(parts []app.UI) error {
	for i, part := range parts {
		switch part.(type) {
		case nil:
			return fmt.Errorf("part %d is nil", i)
		case app.Condition:
			return fmt.Errorf("part %d is a condition: %d places, or none", i, len(app.FilterUIElems(part)))
		}
	}
	return nil
}

// samePlaces checks the places of n components found under what, err
// from placesOf, against the first places found, which it keeps.
func samePlaces(t *testing.T, what string, got map[string]int, err error, first *map[string]int, n int) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if *first == nil {
		*first = got
	}
	if len(got) != n || !reflect.DeepEqual(got, *first) {
		t.Errorf("%s: components at %v, before at %v", what, got, *first)
	}
}

// The parts of a bulk's page keep their places whatever the page shows:
// a message or a refusal above the bulk, who approved it, a bulk with or
// without a review; and within the review, its inputs, a message or a
// failure above the grid of elements.
func TestTheBulksPartsKeepTheirPlaces(t *testing.T) {
	at := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	approved := &fourEyes{wire.FourEyesRecord{SubmittedBy: "maker", ExecutedBy: "checker", ExecutedAt: &at}}
	refusal := &wire.APIFailure{Class: wire.ClassConflict, Summary: "refused", Chunk: wire.NoChunk}
	var bulk map[string]int
	for _, status := range []string{wire.BulkSubmitted, wire.BulkRunning} {
		for _, message := range []string{"", "The connection is not ready."} {
			for _, failure := range []*wire.APIFailure{nil, refusal} {
				for _, four := range []*fourEyes{nil, approved} {
					p := &bulkPage{id: "B-1", message: message, failure: failure, fourEyes: four,
						bulk: &wire.BulkInfo{BulkID: "B-1", Status: status, Operations: 3, Actions: []string{wire.ActionExecute, wire.ActionCancel}}}
					name := fmt.Sprintf("%s, message %q, failure %v, approval %v", status, message, failure != nil, four != nil)
					// The bulk, its components within, is the page's last part.
					if parts := p.content(); len(parts) != 4 {
						t.Errorf("%s: %d parts on the page", name, len(parts))
					} else if err := onePlaceEach(parts); err != nil {
						t.Errorf("%s: the page: %v", name, err)
					}
					got, err := placesOf(p.bulkParts())
					samePlaces(t, name+": the bulk", got, err, &bulk, 4)
				}
			}
		}
	}

	var review map[string]int
	read := &wire.BulkReview{Elements: 3}
	for _, status := range []string{wire.BulkSubmitted, wire.BulkCompleted} {
		for _, message := range []string{"", "The elements could not be shown."} {
			for _, result := range []*wire.BulkReview{nil, {Failure: refusal}, read} {
				r := &bulkReview{IbulkID: "B-1", Istatus: status, message: message, result: result}
				name := fmt.Sprintf("%s, message %q, result %+v", status, message, result)
				got, err := placesOf(r.parts())
				samePlaces(t, name+": the review", got, err, &review, 1)
			}
		}
	}
}
