package ingest_test

import "github.com/bulkdesk/bulkdesk/app/ingest/xlsx"

// xlsxLimitsSmall makes zip-bomb tests fast: a part may expand to 4 MiB.
var xlsxLimitsSmall = xlsx.Limits{MaxPartBytes: 4 << 20, MaxTotalBytes: 8 << 20, MaxRatio: 400}
