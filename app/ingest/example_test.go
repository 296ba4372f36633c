package ingest_test

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// The whole flow: read a CSV export, review the mapping and the settings,
// build, then correct one cell.
func Example() {
	csv := "Card blocks for November\n" +
		"Card ID;Reason\n" +
		"101;lost\n" +
		"1O2;stolen\n"
	file, err := ingest.Open("blocks.csv", []byte(csv), ingest.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	table, _ := file.Table(file.DefaultSheet(), nil)
	kind, _ := schema.Lookup("card_blocks")
	im := ingest.NewImport(table, kind, schema.Default())

	m := im.Mapping()
	fmt.Println("header row", m.HeaderRow)
	for _, c := range m.Columns {
		fmt.Printf("%s %q → %q (%s)\n", c.Letter, c.Header, c.Field, c.Match)
	}

	res := im.Build(nil)
	for _, p := range res.Report.Problems {
		fmt.Printf("%s: %s\n", ingest.Where(p), p.Message)
	}

	// The operator types 102 over 1O2.
	problems, _ := im.EditCell(4, 0, "102")
	fmt.Println("problems of row 4 now:", len(problems), "- elements:", len(res.Request()))
	// Output:
	// header row 2
	// A "Card ID" → "pathParams._id_" (alias)
	// B "Reason" → "" ()
	// blocks!B2: column B ("Reason") is not imported: map it to a field if it holds one
	// blocks!A4: pathParams._id_ may contain only digits; found "1O2"
	// problems of row 4 now: 0 - elements: 2
}

// Amounts in major units with decimal commas are detected, shown as raw →
// parsed examples, and can be overridden.
func ExampleImport_Examples() {
	csv := "profileId;source.id;source.type;destination.id;destination.type;currency;amount\n" +
		"1;10;managed_accounts;20;managed_cards;EUR;1.234,56\n" +
		"1;10;managed_accounts;20;managed_cards;JPY;1.500\n"
	file, _ := ingest.Open("pay.csv", []byte(csv), ingest.Options{})
	table, _ := file.Table("", nil)
	kind, _ := schema.Lookup("transfers")
	im := ingest.NewImport(table, kind, schema.Default())
	fmt.Println(im.Settings())
	for _, e := range im.Examples() {
		fmt.Printf("%s%d %s → %s\n", e.Column, e.Row, e.Raw, e.Parsed)
	}
	// Output:
	// amounts in major units (10.50), decimal ',', groups '.'
	// G2 1.234,56 → EUR 1,234.56
	// G3 1.500 → JPY 1,500
}

// A saved mapping reads next month's export, whose columns moved.
func ExampleImport_UseSavedMapping() {
	kind, _ := schema.Lookup("card_blocks")
	open := func(csv string) *ingest.Import {
		file, _ := ingest.Open("x.csv", []byte(csv), ingest.Options{})
		table, _ := file.Table("", nil)
		return ingest.NewImport(table, kind, schema.Default())
	}
	october := open("Karte,Grund\n101,lost\n")
	m := october.Mapping()
	m.Set(0, "pathParams._id_")
	october.SetMapping(m)
	saved, _ := ingest.MarshalMapping(october.Mapping())

	november := open("Grund,Karte\nstolen,102\n")
	loaded, _ := ingest.UnmarshalMapping(saved)
	november.UseSavedMapping(loaded)
	fmt.Println(asJSON(november.Build(nil).Request()))
	// Output:
	// [{"pathParams":{"_id_":"102"}}]
}
