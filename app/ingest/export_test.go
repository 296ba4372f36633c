package ingest

// SkipChecks turns the plausibility checks off (true) or on, for
// benchmarks that measure their cost.
func SkipChecks(skip bool) { skipChecks = skip }
