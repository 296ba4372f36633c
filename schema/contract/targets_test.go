package contract_test

import (
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
)

// bulkTargets are the real bulk kinds and their submission operations.
var bulkTargets = func() []contract.Target {
	var out []contract.Target
	for _, t := range schema.Targets() {
		out = append(out, contract.Target(t))
	}
	return out
}()
