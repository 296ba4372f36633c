package jobs

import (
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/bulkdesk/bulkdesk/schema"
)

// markMoney marks the columns of the kind's amount and currency, which
// the table shows beside the pinned column (worker.GridColumn.Money).
func markMoney(k *schema.Kind, cols []worker.GridColumn) {
	if k == nil || k.Amount == "" {
		return
	}
	for i, c := range cols {
		switch c.Field {
		case k.Amount + ".amount":
			cols[i].Money = worker.MoneyAmount
		case k.Amount + ".currency":
			cols[i].Money = worker.MoneyCurrency
		}
	}
}
