package contract_test

import "github.com/bulkdesk/bulkdesk/schema/contract/load"

// bulkTargets are the real bulk kinds and their submission operations.
var bulkTargets = load.Targets()
