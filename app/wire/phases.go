package wire

// Phases says where a reading job's time went in the worker, for the
// browser benchmark, which compares them with the page's performance
// marks (the page ignores them). Durations are in milliseconds; the
// moments are milliseconds since the Unix epoch, as the browser's
// performance.timeOrigin + performance.now() gives them, so that the
// page's and the worker's clocks compare.
type Phases struct {
	// Fetched and Started are when the worker's program had been
	// downloaded and when it began to run (compiled and instantiated);
	// 0 when the worker cannot tell.
	Fetched float64 `json:"fetched,omitempty"`
	Started float64 `json:"started,omitempty"`
	// Begun and Ended are when the job began and when its result was
	// about to be sent.
	Begun float64 `json:"begun"`
	Ended float64 `json:"ended"`
	// Read is opening the file and reading its table, Validate building
	// and validating its elements, Review the review and its summary;
	// the rest of the job (keeping the draft) is Ended - Begun less them.
	Read     float64 `json:"read"`
	Validate float64 `json:"validate"`
	Review   float64 `json:"review"`
}
