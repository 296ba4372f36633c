package bulkreview

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/inert"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// ReceiptVersion is the version of the receipt's JSON layout: 2 names
// the bulks "parts", each with its "part", as the screen and the command
// line do; version 1 named them "chunks" and "chunk", and is still read
// (see UnmarshalJSON).
const ReceiptVersion = 2

// A Receipt is what the maker declares after submitting a file: what was
// sent, as which bulks, and its control totals. The checker compares it
// with the API's record of each bulk (Compare).
type Receipt struct {
	Version int `json:"version"`
	// File is the name of the file submitted.
	File string `json:"file,omitempty"`
	Kind string `json:"kind"`
	// API is Standard or BackOffice.
	API string `json:"api"`
	// Submission is the plan's id, which the journal keeps.
	Submission string `json:"submission"`
	// Reading says in words how the file was read (units, separators,
	// sheet); empty for a JSON request body.
	Reading     []string  `json:"reading,omitempty"`
	SubmittedBy string    `json:"submittedBy,omitempty"`
	SubmittedAt time.Time `json:"submittedAt"`
	// Elements is how many elements the chunks hold together.
	Elements int `json:"elements"`
	// Totals and Sources are the control totals of every chunk together.
	Totals  []Amount        `json:"totals,omitempty"`
	Sources []SourceAmounts `json:"sources,omitempty"`
	Chunks  []ReceiptChunk  `json:"parts"`
}

// A ReceiptChunk is one bulk of a submission.
type ReceiptChunk struct {
	// Chunk is its place in the submission, from 1: "part 2 of 3".
	Chunk    int    `json:"part"`
	BulkID   string `json:"bulkId"`
	Elements int    `json:"elements"`
	// SHA256 is the hex SHA-256 of the chunk's body in record form (see
	// RecordForm): a review's BodySHA256 when the bulk is unchanged.
	SHA256 string `json:"sha256"`
	// SentSHA256 is the hex SHA-256 of the body exactly as sent; equal to
	// SHA256 when the file's elements carried nothing the record drops.
	SentSHA256 string          `json:"sentSha256"`
	Totals     []Amount        `json:"totals,omitempty"`
	Sources    []SourceAmounts `json:"sources,omitempty"`
	// Fingerprints are the fingerprints of the chunk's elements in order
	// (submission.Fingerprint, in hex), so that a review names each
	// element that differs by its index (see Compare). Receipts written
	// before they existed have none, and compare by totals and hash.
	Fingerprints []string `json:"fingerprints,omitempty"`
}

// An Amount is a control total of one currency in JSON.
type Amount struct {
	// Currency is the ISO 4217 code; "" for the total of invalid
	// currencies, which InvalidCurrency marks and Codes names.
	Currency        string   `json:"currency,omitempty"`
	InvalidCurrency bool     `json:"invalidCurrency,omitempty"`
	Codes           []string `json:"codes,omitempty"`
	Count           int      `json:"count"`
	// Minor is the exact sum in minor units, as decimal digits: no float
	// ever holds it.
	Minor string `json:"minor"`
	// Amount is the sum for people ("1,234.56"); Minor is the one read.
	Amount string `json:"amount"`
}

// SourceAmounts are the control totals of the elements drawn on one
// source instrument.
type SourceAmounts struct {
	Source string   `json:"source"`
	Count  int      `json:"count"`
	Totals []Amount `json:"totals,omitempty"`
}

// AmountsOf writes totals for JSON.
func AmountsOf(ts []money.Total) []Amount {
	out := make([]Amount, len(ts))
	for i, t := range ts {
		out[i] = Amount{Currency: t.Currency, InvalidCurrency: t.Invalid, Codes: t.Codes, Count: t.Count, Minor: t.Minor.String(), Amount: t.Amount()}
	}
	return out
}

// SourcesOf writes source totals for JSON.
func SourcesOf(ss []review.SourceTotal) []SourceAmounts {
	out := make([]SourceAmounts, len(ss))
	for i, s := range ss {
		out[i] = SourceAmounts{Source: s.Source, Count: s.Count, Totals: AmountsOf(s.Totals)}
	}
	return out
}

// Label names an amount's row: its currency, or "invalid currency".
func (a Amount) Label() string {
	if a.InvalidCurrency {
		return money.InvalidCurrency
	}
	return a.Currency
}

// total reads the amount back; it fails on a sum that is not digits.
func (a Amount) total() (money.Total, error) {
	n, ok := new(big.Int).SetString(a.Minor, 10)
	if !ok {
		return money.Total{}, fmt.Errorf("the %s total %q is not a sum in minor units", a.Label(), a.Minor)
	}
	return money.Total{Currency: a.Currency, Invalid: a.InvalidCurrency, Codes: a.Codes, Count: a.Count, Minor: n}, nil
}

// Declared is what the maker's side knows beyond the plan.
type Declared struct {
	// File is the name of the file submitted; "" takes the plan's Source.
	File string
	// Reading says in words how the file was read.
	Reading     []string
	SubmittedBy string
	// SubmittedAt is when; zero means now.
	SubmittedAt time.Time
}

// NewReceipt makes the receipt of a plan whose chunks the journal entries
// show submitted. elements are the request's elements (decoded as by
// schema.DecodeJSON) that the plan's chunks index: the totals are theirs,
// summed as the review of a file sums them.
func NewReceipt(plan *submission.Plan, entries []submission.Entry, elements []any, d Declared) (*Receipt, error) {
	r := &Receipt{Version: ReceiptVersion, File: d.File, Kind: plan.Kind.ID, API: APIName(plan.BackOffice), Submission: plan.ID,
		Reading: d.Reading, SubmittedBy: d.SubmittedBy, SubmittedAt: d.SubmittedAt.UTC(), Elements: plan.Elements}
	if r.File == "" {
		r.File = plan.Source
	}
	if d.SubmittedAt.IsZero() {
		r.SubmittedAt = time.Now().UTC()
	}
	byRef := make(map[string]submission.Entry, len(entries))
	for _, e := range entries {
		byRef[e.Ref] = e
	}
	var all []any
	for _, c := range plan.Chunks {
		e, ok := byRef[c.Ref]
		if !ok || e.State != submission.Submitted || e.BulkID == "" {
			return nil, fmt.Errorf("part %d of %d was not submitted: the receipt names every bulk of a submission", c.Index+1, len(plan.Chunks))
		}
		part := make([]any, 0, c.Count())
		for _, i := range c.Elements.Indexes() {
			if i < 0 || i >= len(elements) {
				return nil, fmt.Errorf("part %d: element %d is not among the request's %d", c.Index+1, i, len(elements))
			}
			part = append(part, elements[i])
		}
		// The chunk's own elements, not its body read back: the body is
		// their canonical form, so the record form is the same.
		rc, err := chunkOf(plan.Kind, c.Index+1, e.BulkID, part, c.Body)
		if err != nil {
			return nil, err
		}
		r.Chunks = append(r.Chunks, rc)
		all = append(all, part...)
	}
	t := TotalsOf(plan.Kind, all)
	r.Totals, r.Sources = AmountsOf(t.Currencies), SourcesOf(t.Sources)
	return r, nil
}

// Fingerprints returns the fingerprints of elements of kind k, in order.
func Fingerprints(k *schema.Kind, elements []any) ([]submission.Fingerprint, error) {
	out := make([]submission.Fingerprint, len(elements))
	for i, el := range elements {
		fp, err := submission.ElementFingerprint(k, el)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = fp
	}
	return out, nil
}

// HexFingerprints writes fingerprints as a receipt holds them.
func HexFingerprints(fps []submission.Fingerprint) []string {
	out := make([]string, len(fps))
	for i, fp := range fps {
		out[i] = hex.EncodeToString(fp[:])
	}
	return out
}

// MarshalIndent writes the receipt as indented JSON with a final newline.
// The formula characters of its strings that could begin a spreadsheet
// cell are written as \u escapes (see inert.JSON): the values are the
// same to every JSON reader.
func (r *Receipt) MarshalIndent() ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(inert.JSON(data), '\n'), nil
}

// ReadReceipt reads a receipt and checks it: its version, kind, API and
// every sum, so that a receipt whose amounts cannot be read is refused
// rather than compared as zero. data is the JSON, or the page HTML
// writes, whose JSON is read.
func ReadReceipt(data []byte) (*Receipt, error) {
	if inPage, ok := receiptInPage(data); ok {
		data = inPage
	}
	var r Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("reading the receipt: %w", err)
	}
	if r.Version != ReceiptVersion {
		return nil, fmt.Errorf("the receipt's version is %d; this program reads versions %d to %d", r.Version, receiptV1, ReceiptVersion)
	}
	if _, err := schema.Lookup(r.Kind); err != nil {
		return nil, fmt.Errorf("the receipt: %w", err)
	}
	if r.API != Standard && r.API != BackOffice {
		return nil, fmt.Errorf("the receipt's api is %q: want %s or %s", r.API, Standard, BackOffice)
	}
	if len(r.Chunks) == 0 {
		return nil, fmt.Errorf("the receipt names no bulk")
	}
	check := func(where string, as []Amount) error {
		for _, a := range as {
			if _, err := a.total(); err != nil {
				return fmt.Errorf("the receipt's %s: %w", where, err)
			}
		}
		return nil
	}
	checkSources := func(where string, ss []SourceAmounts) error {
		for _, s := range ss {
			if err := check(where+" of source "+s.Source, s.Totals); err != nil {
				return err
			}
		}
		return nil
	}
	if err := check("totals", r.Totals); err != nil {
		return nil, err
	}
	if err := checkSources("totals", r.Sources); err != nil {
		return nil, err
	}
	for _, c := range r.Chunks {
		where := fmt.Sprintf("part %d (bulk %s)", c.Chunk, c.BulkID)
		if c.BulkID == "" {
			return nil, fmt.Errorf("the receipt's part %d names no bulk", c.Chunk)
		}
		if err := check(where, c.Totals); err != nil {
			return nil, err
		}
		if err := checkSources(where, c.Sources); err != nil {
			return nil, err
		}
		if err := checkFingerprints(where, c); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// checkFingerprints refuses a chunk's fingerprints that cannot name its
// elements: one per element, each the hex of a fingerprint.
func checkFingerprints(where string, c ReceiptChunk) error {
	if c.Fingerprints == nil {
		return nil
	}
	if len(c.Fingerprints) != c.Elements {
		return fmt.Errorf("the receipt's %s lists %d fingerprints for %d elements", where, len(c.Fingerprints), c.Elements)
	}
	for i, fp := range c.Fingerprints {
		if b, err := hex.DecodeString(fp); err != nil || len(b) != submission.FingerprintSize || fp != strings.ToLower(fp) {
			return fmt.Errorf("the receipt's %s: the fingerprint of element %d is not %d bytes in lower-case hex", where, i, submission.FingerprintSize)
		}
	}
	return nil
}

// BulkIDs returns the ids of the receipt's bulks, in chunk order.
func (r *Receipt) BulkIDs() []string {
	ids := make([]string, len(r.Chunks))
	for i, c := range r.Chunks {
		ids[i] = c.BulkID
	}
	return ids
}
