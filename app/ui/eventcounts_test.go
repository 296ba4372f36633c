package ui

import (
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/webhook"
)

// The end of a bulk counts its operations by state in the console's words
// and numbers, as the bulk's page does.
func TestAnEventsCountsAreInTheConsolesLanguage(t *testing.T) {
	defer setLanguage(lang.English)
	body := []byte(`{"bulkId":"7","status":"PARTIALLY_COMPLETED","operationStatusCounts":[{"status":"COMPLETED","count":9990},{"status":"FAILED","count":10}]}`)
	s := webhook.Summarize("/bulk_process_end/watch", body, time.Time{})
	for l, want := range map[lang.Tag]string{
		lang.English: "9,990 completed, 10 failed",
		lang.German:  "9.990 abgeschlossen, 10 fehlgeschlagen",
		lang.French:  "terminées\u202f: 9\u202f990, en échec\u202f: 10",
	} {
		setLanguage(l)
		var got string
		for _, f := range s.Fields {
			if f.Role == webhook.RoleCounts {
				got = stateCounts(f.Counts)
			}
		}
		if got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}
