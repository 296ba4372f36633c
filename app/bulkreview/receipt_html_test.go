package bulkreview_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/fakeapi"
	"github.com/bulkdesk/bulkdesk/app/fixture"
)

// The printable receipt shows its facts to people, escapes what the file
// and the maker's name carry, and holds the JSON the review reads.
func TestAReceiptReadsAsAPage(t *testing.T) {
	api := fakeapi.New()
	rc := receiptOf(t, submit(t, api, api, fixture.SampleBody(250), 120))
	rc.File, rc.SubmittedBy = `pay<script>.json`, "Zoë & co"
	page, err := rc.HTML()
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	for _, want := range []string{
		"pay&lt;script&gt;.json", "Zoë &amp; co", "Create transfers", "250 in 3 bulks", ">EUR<", ">" + rc.Totals[0].Amount + "<",
		rc.Chunks[0].SHA256, rc.Chunks[2].BulkID, "amounts in minor units", "2026-11-23 10:00:00 UTC",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if got := strings.Count(text, "<tr><td>managed_accounts "); got != 50 || !strings.Contains(text, "The 50 sources with the most elements, of 250") {
		t.Errorf("the page lists %d sources of 250, want the first 50 and a word on the others", got)
	}
	if strings.Contains(text, "<script>") {
		t.Error("the file's name is not escaped")
	}
	m := regexp.MustCompile(`(?s)<pre id="receipt-json">(.*?)</pre>`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("the page holds no JSON")
	}
	back, err := bulkreview.ReadReceipt([]byte(html.UnescapeString(m[1])))
	if err != nil || back.Elements != 250 || back.File != rc.File || back.Chunks[1].SHA256 != rc.Chunks[1].SHA256 {
		t.Errorf("the page's JSON reads back as %+v, %v", back, err)
	}
	// The review reads the page itself as the receipt.
	if back, err = bulkreview.ReadReceipt(page); err != nil || back.SubmittedBy != rc.SubmittedBy || len(back.Chunks) != 3 {
		t.Errorf("the page reads as %+v, %v", back, err)
	}
}
