package wire

import "github.com/bulkdesk/bulkdesk/app/keyfields"

// ReviewElements are the elements of a bulk JobReviewBulk read, as the
// checker's grid shows them: their key fields (keyfields.Fields, the
// kind's one definition) column by column, the nth entry of each column
// being the element of index n, and the problems of those that have any.
// They travel as the review's Data, in the layout MarshalBinary writes.
// A column no element fills is left out.
type ReviewElements struct {
	Count int `json:"count"`
	// MovesMoney, HasReference and ReceiverType say which key fields the
	// kind has, as OperationList does.
	MovesMoney   bool   `json:"movesMoney,omitempty"`
	HasReference bool   `json:"hasReference,omitempty"`
	ReceiverType string `json:"receiverType,omitempty"`

	// Who receives: keyfields.Counterparty, a column per field.
	Type          []string `json:"type,omitempty"`
	ID            []string `json:"id,omitempty"`
	Name          []string `json:"name,omitempty"`
	Email         []string `json:"email,omitempty"`
	IBAN          []string `json:"iban,omitempty"`
	AccountNumber []string `json:"accountNumber,omitempty"`
	SortCode      []string `json:"sortCode,omitempty"`
	Account       []string `json:"account,omitempty"`
	BIC           []string `json:"bic,omitempty"`
	// Currency and Amount are keyfields.Amount's: the amount in minor
	// units as decimal digits, "" for an element without one.
	Currency  []string `json:"currency,omitempty"`
	Amount    []string `json:"amount,omitempty"`
	Reference []string `json:"reference,omitempty"`
	Source    []string `json:"source,omitempty"`

	// Problems are the elements with errors or warnings, in order.
	Problems []ElementProblems `json:"problems,omitempty"`
}

// ElementProblems are the problems of one element, in the validator's
// language.
type ElementProblems struct {
	Element  int      `json:"element"`
	Errors   []string `json:"errors,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// NewReviewElements lays out the key fields of n elements, fields(i)
// giving element i's.
func NewReviewElements(n int, fields func(i int) keyfields.Fields) *ReviewElements {
	all := make([]keyfields.Fields, n)
	for i := range all {
		all[i] = fields(i)
	}
	column := func(get func(f *keyfields.Fields) string) []string {
		var out []string
		for i := range all {
			v := get(&all[i])
			if v != "" && out == nil {
				out = make([]string, n)
			}
			if out != nil {
				out[i] = v
			}
		}
		return out
	}
	amount := func(f *keyfields.Fields, get func(a *keyfields.Amount) string) string {
		if f.Amount == nil {
			return ""
		}
		return get(f.Amount)
	}
	return &ReviewElements{
		Count:         n,
		Type:          column(func(f *keyfields.Fields) string { return f.Counterparty.Type }),
		ID:            column(func(f *keyfields.Fields) string { return f.Counterparty.ID }),
		Name:          column(func(f *keyfields.Fields) string { return f.Counterparty.Name }),
		Email:         column(func(f *keyfields.Fields) string { return f.Counterparty.Email }),
		IBAN:          column(func(f *keyfields.Fields) string { return f.Counterparty.IBAN }),
		AccountNumber: column(func(f *keyfields.Fields) string { return f.Counterparty.AccountNumber }),
		SortCode:      column(func(f *keyfields.Fields) string { return f.Counterparty.SortCode }),
		Account:       column(func(f *keyfields.Fields) string { return f.Counterparty.Account }),
		BIC:           column(func(f *keyfields.Fields) string { return f.Counterparty.BIC }),
		Currency: column(func(f *keyfields.Fields) string {
			return amount(f, func(a *keyfields.Amount) string { return a.Currency })
		}),
		// An amount of no currency still has its digits: "0" is kept.
		Amount: column(func(f *keyfields.Fields) string {
			return amount(f, func(a *keyfields.Amount) string { return a.Minor })
		}),
		Reference: column(func(f *keyfields.Fields) string { return f.Reference }),
		Source:    column(func(f *keyfields.Fields) string { return f.Source }),
	}
}

// Fields returns the key fields of element i.
func (e *ReviewElements) Fields(i int) keyfields.Fields {
	at := func(col []string) string {
		if i < 0 || i >= len(col) {
			return ""
		}
		return col[i]
	}
	f := keyfields.Fields{
		Counterparty: keyfields.Counterparty{Type: at(e.Type), ID: at(e.ID), Name: at(e.Name), Email: at(e.Email),
			IBAN: at(e.IBAN), AccountNumber: at(e.AccountNumber), SortCode: at(e.SortCode), Account: at(e.Account), BIC: at(e.BIC)},
		Reference: at(e.Reference),
		Source:    at(e.Source),
	}
	if minor := at(e.Amount); minor != "" {
		f.Amount = &keyfields.Amount{Currency: at(e.Currency), Minor: minor}
	}
	return f
}

// An ElementRepeat is an element of a reviewed bulk that another bulk
// holds too.
type ElementRepeat struct {
	Element int `json:"element"`
	// BulkID is the latest earlier bulk holding it; Others how many more
	// do.
	BulkID string `json:"bulkId"`
	Others int    `json:"others,omitempty"`
}
