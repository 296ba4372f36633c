package reading_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/reading"
)

// A time zone not chosen is undecided, named among the decisions to
// take, said in words with a date it concerns, and written in JSON as
// "timeZone"; one chosen says so with a date read in it.
func TestTimeZoneDecision(t *testing.T) {
	undecided := reading.Reading{TimeZone: reading.Decision{How: reading.Default, Undecided: true, Column: "J",
		Evidence: []reading.Cell{{Row: 2, Column: "J", Raw: "15.12.2026"}}}}
	if got := undecided.Undecided(); len(got) != 1 || got[0] != "timeZone" || !undecided.NeedsLook() {
		t.Errorf("undecided %v", got)
	}
	if undecided.Get("timeZone") != &undecided.TimeZone {
		t.Error("Get does not find the time zone")
	}
	st := reading.Describe(undecided, "", lang.German)
	if len(st) != 1 || !st[0].Undecided || !st[0].Marked || st[0].Text != `Zeitzone nicht gewählt: Ein Datum wie „15.12.2026“ (J2) ist ein Fehler in seiner Zelle, bis Sie die Zeitzone wählen, in der die Datumsangaben der Datei gelten.` {
		t.Errorf("statement %+v", st)
	}
	data, _ := json.Marshal(undecided)
	if !strings.Contains(string(data), `"timeZone":{"value":"","how":"default","undecided":true`) {
		t.Errorf("JSON %s", data)
	}
	chosen := reading.Reading{TimeZone: reading.Decision{Value: "Europe/Paris", How: reading.Chosen,
		Evidence: []reading.Cell{{Row: 2, Column: "J", Raw: "15/12/2026", Why: "15 déc. 2026, 00:00 Europe/Paris"}}}}
	st = reading.Describe(chosen, "", lang.French)
	if len(st) != 1 || st[0].Marked || st[0].Text != "dates et heures dans le fuseau Europe/Paris\u202f: «\u202f15/12/2026\u202f» correspond au 15 déc. 2026, 00:00 Europe/Paris, comme vous l’avez choisi." {
		t.Errorf("statement %+v", st)
	}
}
