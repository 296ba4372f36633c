package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/bulkdesk/bulkdesk/schema"
)

// gridColumns are the columns of a built document's review table.
func gridColumns(d *LoadedFile) []wire.GridColumn {
	var cols []wire.GridColumn
	for _, col := range d.review.Columns() {
		cols = append(cols, wire.GridColumn{Letter: col.Letter, Header: col.Header, Field: col.Field, Required: col.Required, Set: col.Set})
	}
	pinIdentity(d.Kind, cols)
	markMoney(d.Kind, cols)
	return cols
}

// markMoney marks the columns of the kind's amount and currency, which
// the table shows beside the pinned column (wire.GridColumn.Money).
func markMoney(k *schema.Kind, cols []wire.GridColumn) {
	if k == nil || k.Amount == "" {
		return
	}
	for i, c := range cols {
		switch c.Field {
		case k.Amount + ".amount":
			cols[i].Money = wire.MoneyAmount
		case k.Amount + ".currency":
			cols[i].Money = wire.MoneyCurrency
		}
	}
}
