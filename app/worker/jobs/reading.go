package jobs

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/reading"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// settingNames are the names of the settings an operator decides
// (wire.Prepare.Chosen).
var settingNames = []string{"amounts", "decimal", "group", "dates", "currency", "timeZone"}

// statements says in words how the document's values are read, for the
// review's header and the confirmation before a submission; nil for a
// JSON request body, which is read as it is. currencies are the ones the
// document's amounts are in, the first known one writing the examples.
func (d *LoadedFile) statements(currencies []string, w lang.Tag) []reading.Statement {
	if d.im == nil {
		return nil
	}
	return reading.Describe(d.im.Reading(), d.currency(currencies, nil), w)
}

// currency is the currency the statements write their examples in: the
// one the settings name, else the first known of currencies, else the
// first an example of an amount is read in; "" (EUR) when none is known.
func (d *LoadedFile) currency(currencies []string, examples []wire.Example) string {
	if d.im != nil {
		if c := d.im.Settings().Currency; c != "" {
			return c
		}
	}
	for _, e := range examples {
		if code, _, ok := strings.Cut(e.Parsed, " "); ok {
			currencies = append(currencies, code)
		}
	}
	for _, c := range currencies {
		if _, ok := money.Digits(c); ok {
			return c
		}
	}
	return ""
}
