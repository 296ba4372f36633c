package review_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/app/fixture"
	"github.com/bulkdesk/bulkdesk/app/fixture/importing"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/schema"
)

// TestAValueSetForEveryRowIsAColumnOfItsOwn: the review shows it after
// the file's columns, marked as set, with its problems at it, and no
// row's value of it can be changed apart from the others.
func TestAValueSetForEveryRowIsAColumnOfItsOwn(t *testing.T) {
	const file = "source.id;destination.id;destination.type;currency;amount\n1001;2001;managed_cards;EUR;100\n1002;2002;managed_cards;EUR;200\n"
	im := importing.Import(t, "pay.csv", []byte(file), fixture.Kind("transfers"))
	m := im.Mapping()
	m.SetValue("source.type", "managed_accounts")
	m.SetValue("profileId", "11O321")
	if err := im.SetMapping(m); err != nil {
		t.Fatal(err)
	}
	im.Build(nil)
	d, err := review.FromImport(im, false, "pay.csv")
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, c := range d.Columns() {
		head := c.Letter + ":" + c.Field
		if c.Set {
			head += "=" + c.Value
		}
		heads = append(heads, head)
	}
	if got := strings.Join(heads, " "); got != "A:source.id B:destination.id C:destination.type D:destinationAmount.currency E:destinationAmount.amount :profileId=11O321 :source.type=managed_accounts" {
		t.Errorf("columns %s", got)
	}
	r := d.Row(1)
	if r.Cells[5] != "11O321" || r.Cells[6] != "managed_accounts" {
		t.Errorf("row 3's cells %q", r.Cells)
	}
	if len(r.Marks) != 1 || r.Marks[0].Column != 5 || r.Marks[0].Severity != schema.Error ||
		!strings.HasPrefix(r.Marks[0].Messages[0], "the value set for every row: profileId ") || len(r.Problems) != 0 {
		t.Errorf("row 3's marks %+v, problems %q", r.Marks, r.Problems)
	}
	if err := d.Edit(1, 5, "110321"); !errors.Is(err, review.ErrSetForEveryRow) {
		t.Errorf("editing a set value: %v", err)
	}
	if _, err := d.Replace(6, "managed", "x", false, false); !errors.Is(err, review.ErrSetForEveryRow) {
		t.Errorf("replacing in a set value: %v", err)
	}
	if v := d.Elements()[0].(map[string]any)["requestBody"].(map[string]any)["source"].(map[string]any)["type"]; v != "managed_accounts" {
		t.Errorf("source.type sent: %v", v)
	}
}
