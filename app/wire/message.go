package wire

// A Type says what a message is.
type Type string

// The message types. Requests and cancels go from the page to the worker;
// the others go back.
const (
	TypeRequest  Type = "request"
	TypeCancel   Type = "cancel"
	TypeProgress Type = "progress"
	TypeResult   Type = "result"
	TypeError    Type = "error"
	// TypeReady tells the page the worker takes jobs.
	TypeReady Type = "ready"
	// TypeWarm tells the page the worker has warmed up: the browser has
	// compiled and optimized its code, and jobs run at full speed.
	TypeWarm Type = "warm"
	// TypeFatal tells the page the worker could not start; Body is an Error.
	TypeFatal Type = "fatal"
	// TypeStorage asks the page to read or write its localStorage for the
	// worker, which has none; Body is a StorageRequest. The page answers
	// with TypeStorageReply and the same ID.
	TypeStorage      Type = "storage"
	TypeStorageReply Type = "storage-reply"
	// TypeInit is the page's first message to worker.js, before any
	// program runs: Body is the URL of the worker's program and
	// FieldSecond that of the second worker's.
	TypeInit Type = "init"
)

// A Message is one message between the page and the worker.
type Message struct {
	// ID pairs requests with their progress, result or error.
	ID int
	// Type says what the message is.
	Type Type
	// Job names the job of a request.
	Job string
	// Body is JSON text: a request, a result, a Progress or an Error.
	Body []byte
	// Data is a binary payload, such as a file's bytes.
	Data []byte
}

// Progress tells how far a job has gone.
type Progress struct {
	// Phase names the step in an operator's words: PhaseReading, ….
	Phase string `json:"phase"`
	// Done and Total count the step's units (elements, rows); Total is 0
	// when it is not known yet.
	Done  int `json:"done"`
	Total int `json:"total"`
	// Detail says more about the step, in an operator's words ("chunk 2
	// of 3: the API asks to wait 2s").
	Detail string `json:"detail,omitempty"`
}

// The phases of a Progress. The page names some of them to the operator
// in its own words, so they are compared, not only shown.
const (
	PhaseReading    = "reading"
	PhaseValidating = "validating"
	PhaseSubmitting = "submitting"
	// PhaseChecking looks for elements earlier bulks hold (repeats).
	PhaseChecking = "checking"
	// PhaseReadingOperations reads a bulk's operations from the API.
	PhaseReadingOperations = "reading operations"
	// PhaseWriting writes a workbook.
	PhaseWriting = "writing"
)

// A StorageOp is what a StorageRequest asks of the page's localStorage.
type StorageOp string

// The storage operations.
const (
	StorageGet StorageOp = "get"
	StorageSet StorageOp = "set"
)

// StorageRequest is the body of a TypeStorage message: StorageGet or
// StorageSet the item Key of the page's localStorage. The page serves
// only the keys of the submission journal.
type StorageRequest struct {
	Op    StorageOp `json:"op"`
	Key   string    `json:"key"`
	Value string    `json:"value,omitempty"`
}

// StorageKeyPrefix starts every key the page serves for the worker: the
// submission journal's (kvstore.KeyPrefix, which a test holds it to).
const StorageKeyPrefix = "bulkdesk.journal."

// StorageReply is the body of a TypeStorageReply message.
type StorageReply struct {
	Value string `json:"value,omitempty"`
	Found bool   `json:"found,omitempty"`
	// Error says why the page could not serve the request ("the storage
	// is full").
	Error string `json:"error,omitempty"`
}
