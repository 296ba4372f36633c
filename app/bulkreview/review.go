package bulkreview

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/money"
	"github.com/bulkdesk/bulkdesk/app/review"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// API names the two APIs as receipts and reviews write them.
const (
	Standard   = "standard"
	BackOffice = "back-office"
)

// APIName returns Standard or BackOffice.
func APIName(backOffice bool) string {
	if backOffice {
		return BackOffice
	}
	return Standard
}

// Options shape a review.
type Options struct {
	// Validator checks each element; nil means schema.Default().
	Validator *schema.Validator
	// Kind, when set, is the bulk's kind as the submission knew it;
	// otherwise it is found from the bulk's operation.
	Kind *schema.Kind
	// Progress, when set, is told after each page of operations read.
	Progress func(done, total int)
}

// Totals are the control totals of some elements: per currency, and per
// source instrument (the most used first), as app/review sums a file.
type Totals struct {
	Currencies []money.Total
	Sources    []review.SourceTotal
}

// A Review is a submitted bulk as the API holds it.
type Review struct {
	BulkID     string
	Kind       *schema.Kind
	BackOffice bool
	Status     bulkapi.Status
	// Listed is how many operations the bulk says it holds; Elements how
	// many were read.
	Listed   int
	Elements []any
	Totals
	// Report holds every problem of every element (validation, duplicate
	// elements, implausible amounts); Invalid the elements with errors.
	Report  *schema.Report
	Invalid []int
	// BodySHA256 is the SHA-256, in hex, of the elements' canonical body
	// (schema.CanonicalArray) in sequence order, each in its record form
	// (see RecordForm): a receipt's chunk hash when nothing changed.
	BodySHA256 string
	// Fingerprints are the elements' fingerprints, in sequence order.
	Fingerprints []submission.Fingerprint
	// Notes say what does not add up in the API's record itself.
	Notes []string
	// Read is when the operations were read.
	Read time.Time

	bulk bulkapi.BulkProcess
	doc  *review.Document
}

// API names the API the bulk was read from.
func (r *Review) API() string { return APIName(r.BackOffice) }

// Valid reports whether every element is valid.
func (r *Review) Valid() bool { return len(r.Invalid) == 0 }

// Problems returns the problems of element i (sequence i).
func (r *Review) Problems(i int) []schema.Problem { return r.doc.Problems(i) }

// Fetch reads bulk bulkID and all its operations through cl (standard or
// back-office, as cl calls) and reviews them.
func Fetch(ctx context.Context, cl *bulkapi.Client, bulkID string, opts Options) (*Review, error) {
	b, err := cl.Get(ctx, bulkID)
	if err != nil {
		return nil, fmt.Errorf("reading bulk %s: %w", bulkID, err)
	}
	k := opts.Kind
	if k == nil {
		if k, err = KindOfOperation(b.Operation, cl.IsBackOffice()); err != nil {
			return nil, fmt.Errorf("bulk %s: %w", bulkID, err)
		}
	}
	ops, err := Operations(ctx, cl, bulkID, opts.Progress)
	if err != nil {
		return nil, err
	}
	r, err := FromOperations(ctx, k, cl.IsBackOffice(), b, ops, opts.Validator)
	if err != nil {
		return nil, err
	}
	r.Read = time.Now()
	return r, nil
}

// FromOperations reviews the operations of bulk b, of kind k.
func FromOperations(ctx context.Context, k *schema.Kind, backOffice bool, b *bulkapi.BulkProcess, ops []bulkapi.Operation, v *schema.Validator) (*Review, error) {
	if v == nil {
		v = schema.Default()
	}
	r := &Review{BulkID: b.BulkID, Kind: k, BackOffice: backOffice, Status: b.Status, Listed: b.SubmittedItemsCount, bulk: *b}
	ops = slices.Clone(ops)
	slices.SortStableFunc(ops, func(a, b bulkapi.Operation) int { return a.Sequence - b.Sequence })
	// The body is the elements in sequence order: a sequence missing or
	// repeated means the record is not the submitted request.
	for i, op := range ops {
		if op.Sequence != i {
			return nil, fmt.Errorf("bulk %s: operation %s has sequence %d where %d was expected: the operations are not the submitted elements in order", b.BulkID, op.OperationID, op.Sequence, i)
		}
	}
	if len(ops) != b.SubmittedItemsCount {
		r.Notes = append(r.Notes, fmt.Sprintf("the bulk says it holds %d operations, and %d were read", b.SubmittedItemsCount, len(ops)))
	}
	r.Elements = make([]any, len(ops))
	var unread []schema.Problem
	for i := range ops {
		el, err := ElementOf(k, &ops[i])
		if err != nil {
			// Kept as null: the body hash then differs from the maker's,
			// and the element is invalid.
			unread = append(unread, schema.Problem{Element: i, Code: "unreadable-operation", Severity: schema.Error,
				Message: fmt.Sprintf("operation %d (%s) of bulk %s: %v", ops[i].Sequence, ops[i].OperationID, b.BulkID, err)})
			continue
		}
		r.Elements[i] = el
	}
	report, err := v.ValidateRequestContext(ctx, k, r.Elements, nil)
	if err != nil {
		return nil, fmt.Errorf("validating the elements of bulk %s: %w", b.BulkID, err)
	}
	report.Add(unread...)
	report.Sort()
	r.doc = review.FromRequest(k, backOffice, "bulk "+b.BulkID, r.Elements, report, v)
	s := r.doc.Summary()
	r.Currencies, r.Sources = s.Totals, s.Sources
	r.Report = r.doc.Report()
	for _, i := range r.Report.InvalidElements() {
		if i >= 0 {
			r.Invalid = append(r.Invalid, i)
		}
	}
	body, err := RecordBody(k, r.Elements)
	if err != nil {
		return nil, fmt.Errorf("writing the body of bulk %s: %w", b.BulkID, err)
	}
	r.BodySHA256 = SHA256(body)
	if r.Fingerprints, err = Fingerprints(k, r.Elements); err != nil {
		return nil, fmt.Errorf("bulk %s: %w", b.BulkID, err)
	}
	return r, nil
}

// SHA256 returns the hex SHA-256 of a body.
func SHA256(body []byte) string {
	h := sha256.Sum256(body)
	return hex.EncodeToString(h[:])
}

// TotalsOf sums elements of kind k as the review of a file sums them.
func TotalsOf(k *schema.Kind, elements []any) Totals {
	d := review.FromRequest(k, false, "", elements, &schema.Report{Kind: k.ID, Elements: len(elements)}, schema.Default())
	s := d.Summary()
	return Totals{Currencies: s.Totals, Sources: s.Sources}
}

// Remember keeps the bulk's fingerprints in the record cache (scope names
// the API, as for submission.UpdateRecord): a check of repeats after the
// review need not read its operations a second time.
func (r *Review) Remember(ctx context.Context, cache submission.RecordCache, scope string, now time.Time) error {
	return submission.Remember(ctx, cache, scope, &r.bulk, r.Fingerprints, now)
}

// Repeats checks the bulk's elements against the other bulks the journal
// submitted and the API's record (either may be nil), as a submission
// checks a file: each repeat names an element (its sequence) and the
// earlier bulk holding it. The bulk itself is left out of both.
func (r *Review) Repeats(journal []submission.Entry, record *submission.Record, now time.Time) ([]submission.Repeat, error) {
	others := slices.DeleteFunc(slices.Clone(journal), func(e submission.Entry) bool { return e.BulkID == r.BulkID })
	var rec *submission.Record
	if record != nil {
		c := *record
		c.Bulks = slices.DeleteFunc(slices.Clone(record.Bulks), func(b submission.RecordedBulk) bool { return b.BulkID == r.BulkID })
		rec = &c
	}
	return submission.FindRepeatsOf(r.Kind, r.Fingerprints, others, rec, now), nil
}
