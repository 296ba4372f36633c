package bulkreview

import (
	"bytes"
	_ "embed"
	"fmt"
	"html"
	"html/template"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/schema"
)

//go:embed receipt.html.tmpl
var receiptPage string

// receiptTemplate writes a receipt as a page to read and print.
var receiptTemplate = template.Must(template.New("receipt").Funcs(template.FuncMap{
	"amounts": func(as []Amount) string {
		parts := make([]string, len(as))
		for i, a := range as {
			parts[i] = a.Label() + " " + a.Amount
		}
		return strings.Join(parts, " · ")
	},
	"count": func(n int) string { return schema.Thousands(int64(n)) },
	// inert puts an apostrophe before a value that a spreadsheet program
	// opening the page would run as a formula (a source, a file name).
	"inert": inert.Text,
}).Parse(receiptPage))

// pageSources is how many sources a receipt's page lists: a salary run
// draws on thousands, which would fill pages of paper.
const pageSources = 50

// receiptView is what the page shows beside the receipt itself.
type receiptView struct {
	*Receipt
	KindTitle string
	// TopSources are the sources the page lists (the most used first, as
	// the receipt orders them); MoreSources says there are others.
	TopSources  []SourceAmounts
	MoreSources bool
	// JSON is the receipt as its JSON file holds it, which the checker's
	// review reads: the page is for people.
	JSON string
}

// HTML writes the receipt as a self-contained page for people: the same
// facts as its JSON, laid out to read and print, with the JSON at the end
// so that a printed receipt holds everything.
func (r *Receipt) HTML() ([]byte, error) {
	data, err := r.MarshalIndent()
	if err != nil {
		return nil, err
	}
	v := receiptView{Receipt: r, KindTitle: r.Kind, JSON: string(data),
		TopSources: r.Sources[:min(len(r.Sources), pageSources)], MoreSources: len(r.Sources) > pageSources}
	if k, err := schema.Lookup(r.Kind); err == nil {
		v.KindTitle = k.Title
	}
	var b bytes.Buffer
	if err := receiptTemplate.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("writing the receipt's page: %w", err)
	}
	return b.Bytes(), nil
}

// The JSON's place in the page.
const (
	jsonStart = `<pre id="receipt-json">`
	jsonEnd   = `</pre>`
)

// receiptInPage returns the JSON a receipt's page holds, when data is one.
func receiptInPage(data []byte) ([]byte, bool) {
	trimmed := bytes.TrimSpace(data)
	if !bytes.HasPrefix(trimmed, []byte("<")) {
		return nil, false
	}
	_, rest, ok := bytes.Cut(data, []byte(jsonStart))
	if !ok {
		return nil, false
	}
	text, _, ok := bytes.Cut(rest, []byte(jsonEnd))
	if !ok {
		return nil, false
	}
	return []byte(html.UnescapeString(string(text))), true
}
