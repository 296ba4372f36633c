package wire

// JobReceipt writes the maker's receipt of a submission every chunk of
// which was submitted: the file, kind and API, each bulk with its element
// count and the SHA-256 of its elements, the totals per currency and per
// source instrument (see app/bulkreview), for the colleague who reviews
// the bulks before executing them. Request: ReceiptRequest. Result: File,
// with the receipt (JSON, or a page to read and print) as Data.
const JobReceipt = "receipt"

// ReceiptRequest is the request of JobReceipt.
type ReceiptRequest struct {
	// Submission names the submission in the journal.
	Submission string `json:"submission"`
	// Reading says in words how the file was read, as the confirmation
	// showed it.
	Reading []string `json:"reading,omitempty"`
	// SubmittedBy is who the server says submitted the bulks; "" when it
	// does not know.
	SubmittedBy string `json:"submittedBy,omitempty"`
	// Format is ReceiptJSON (the default) or ReceiptPage.
	Format string `json:"format,omitempty"`
}

// The formats of a receipt.
const (
	// ReceiptJSON is the receipt the checker's review reads.
	ReceiptJSON = "json"
	// ReceiptPage is the same receipt as an HTML page to read and print,
	// its JSON included.
	ReceiptPage = "html"
)
