package webhook

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/money"
)

// Summary holds what an operator scans a list of events for: the type,
// the time and the few fields that identify what happened.
type Summary struct {
	// Type is the event path; Title its name for people.
	Type  string `json:"type"`
	Title string `json:"title"`
	// Time is when the API published the event.
	Time time.Time `json:"time"`
	// BulkID is set for the end of a bulk process, so a page can link the
	// event to its bulk.
	BulkID string `json:"bulkId,omitempty"`
	// TransactionID is the id of the transfer, send, wire transfer, card
	// transaction or fee the event reports on.
	TransactionID string `json:"transactionId,omitempty"`
	// Status is the state or status the event reports: COMPLETED, FAILED,
	// PENDING, …
	Status string `json:"status,omitempty"`
	// Amount is the money the event moves, when it moves any.
	Amount *Amount `json:"amount,omitempty"`
	// Fields are the key fields in display order, including those above.
	Fields []Field `json:"fields"`
	// Problem says why the payload could not be summarised, if it could
	// not (not a JSON object).
	Problem string `json:"problem,omitempty"`
}

// Amount is a currency amount as events carry it: an ISO 4217 code and an
// integer count of the currency's minor units, kept as its digits.
type Amount struct {
	Currency string `json:"currency"`
	Minor    string `json:"minor"`
}

// Text writes the amount for people, in major units: "EUR 12.50",
// whatever its size. Digits that are not an integer are shown as they
// came, marked as minor units, rather than read as something else.
func (a Amount) Text() string {
	minor, ok := new(big.Int).SetString(a.Minor, 10)
	if !ok {
		return a.Minor + " " + a.Currency + " (minor units)"
	}
	return money.FormatBig(minor, a.Currency)
}

// Field is one labelled value of a summary.
type Field struct {
	Label string `json:"label"`
	Value string `json:"value"`
	// Path is where the value sits in the payload, dotted.
	Path string `json:"path"`
	// Role says what sort of value it is, for a reader that writes it in
	// another language: RoleState (Raw is then the API's word), RoleAmount
	// and RoleCount (numbers written the English way), RoleCounts (Counts
	// holds them); "" otherwise.
	Role string `json:"role,omitempty"`
	Raw  string `json:"raw,omitempty"`
	// Counts are the counts of operations by state, for RoleCounts.
	Counts []StateCount `json:"counts,omitempty"`
}

// A StateCount is how many operations are in one state: the API's word
// for the state and the count's digits.
type StateCount struct {
	State string `json:"state"`
	Count string `json:"count"`
}

// The roles of a Field's value.
const (
	RoleState  = "state"
	RoleAmount = "amount"
	RoleCount  = "count"
	RoleCounts = "counts"
)

// role marks a summary field that also fills a named Summary field.
type role int

const (
	plain role = iota
	bulkID
	transactionID
	status
	amount
	count  // a whole number of things, written with its digits grouped
	counts // an array of {status, count}
)

type fieldSpec struct {
	label string
	path  string
	role  role
}

// summaryFields lists, per event type, the fields worth a glance.
var summaryFields = map[string][]fieldSpec{
	"/corporates/kyb/watch": {
		{lang.Mark("corporate"), "corporateId", plain}, {lang.Mark("KYB status"), "status", status}, {lang.Mark("ongoing status"), "ongoingStatus", plain}},
	"/corporates/kyb/beneficiaries/watch": {
		{lang.Mark("corporate"), "additionalInformation.corporateId", plain}, {lang.Mark("change"), "event", plain},
		{lang.Mark("beneficiary status"), "additionalInformation.beneficiary.status", status}, {lang.Mark("KYB status"), "additionalInformation.kybStatus", plain}},
	"/corporates/corporate_activated/watch":   identityActivated,
	"/corporates/corporate_deactivated/watch": identityDeactivated,
	"/consumers/kyc/watch": {
		{lang.Mark("consumer"), "consumerId", plain}, {lang.Mark("KYC status"), "status", status}, {lang.Mark("KYC level"), "kycLevel", plain}},
	"/consumers/consumer_activated/watch":   identityActivated,
	"/consumers/consumer_deactivated/watch": identityDeactivated,
	"/ibans/watch": {
		{lang.Mark("IBAN"), "iban.id", plain}, {lang.Mark("event"), "type", plain}, {lang.Mark("state"), "iban.state.state", status},
		{lang.Mark("account"), "iban.managedAccountId", plain}, {lang.Mark("currency"), "iban.currency", plain}},
	"/linked_accounts/watch": {
		{lang.Mark("linked account"), "linkedAccount.id", plain}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "linkedAccount.state", status}},
	"/managed_accounts/watch": {
		{lang.Mark("account"), "account.id.id", plain}, {lang.Mark("event"), "type", status}, {lang.Mark("currency"), "account.currency", plain},
		{lang.Mark("available balance"), "account.balances.availableBalance", plain}},
	"/managed_accounts/deposits/watch": {
		{lang.Mark("account"), "id.id", plain}, {lang.Mark("transaction"), "transactionId", transactionID}, {lang.Mark("state"), "state", status},
		{lang.Mark("amount"), "transactionAmount", amount}, {lang.Mark("sender"), "senderName", plain}},
	"/managed_accounts/low_balance/watch": {
		{lang.Mark("account"), "id.id", plain}, {lang.Mark("available balance"), "availableBalance", plain}, {lang.Mark("currency"), "currency", plain}},
	"/managed_cards/state_change/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "state.state", status}, {lang.Mark("card type"), "cardType", plain}},
	"/managed_cards/authorisations/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("transaction"), "transactionId", transactionID}, {lang.Mark("authorisation"), "authorisationType", status},
		{lang.Mark("amount"), "transactionAmount", amount}, {lang.Mark("merchant"), "merchantName", plain}, {lang.Mark("decline reason"), "declineReason", plain}},
	"/managed_cards/adjustments/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("transaction"), "transactionId", transactionID}, {lang.Mark("adjustment"), "adjustmentType", status},
		{lang.Mark("amount"), "adjustmentAmount", amount}},
	"/managed_cards/settlements/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("transaction"), "transactionId", transactionID}, {lang.Mark("state"), "state", status},
		{lang.Mark("settlement"), "settlementType", plain}, {lang.Mark("amount"), "transactionAmount", amount}, {lang.Mark("merchant"), "merchantName", plain}},
	"/managed_cards/expiries/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "state.state", status}, {lang.Mark("expiry"), "expiryMmyy", plain}},
	"/managed_cards/physical_cards_upgrade/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("manufacturing"), "physicalCardDetails.manufacturingState", status},
		{lang.Mark("pending activation"), "physicalCardDetails.pendingActivation", plain}},
	"/managed_cards/replacement/watch": {
		{lang.Mark("card"), "id.id", plain}, {lang.Mark("event"), "eventType", status}, {lang.Mark("reason"), "replacementReason", plain},
		{lang.Mark("replacement card"), "replacementId.id", plain}},
	"/managed_cards/payments/watch": {
		{lang.Mark("card payment"), "cardPayment.id", transactionID}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("status"), "cardPayment.status", status},
		{lang.Mark("card"), "cardPayment.card.id", plain}, {lang.Mark("amount"), "cardPayment.displayAmount", amount}, {lang.Mark("merchant"), "cardPayment.merchant.name", plain}},
	"/transfers/watch": {
		{lang.Mark("transfer"), "transfer.id.id", transactionID}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "transfer.state", status},
		{lang.Mark("amount"), "transfer.destinationAmount", amount}, {lang.Mark("from"), "transfer.source.id", plain}, {lang.Mark("to"), "transfer.destination.id", plain},
		{lang.Mark("tag"), "transfer.tag", plain}, {lang.Mark("conflict"), "transfer.conflict", plain}},
	"/send/watch": {
		{lang.Mark("send"), "send.id.id", transactionID}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "send.state", status},
		{lang.Mark("amount"), "send.destinationAmount", amount}, {lang.Mark("from"), "send.source.id", plain}, {lang.Mark("to"), "send.destination.id", plain},
		{lang.Mark("tag"), "send.tag", plain}, {lang.Mark("conflict"), "send.conflict", plain}},
	"/outgoing_wire_transfers/watch": {
		{lang.Mark("wire transfer"), "transfer.id.id", transactionID}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "transfer.state", status},
		{lang.Mark("amount"), "transfer.transferAmount", amount}, {lang.Mark("network"), "transfer.type", plain},
		{lang.Mark("beneficiary"), "transfer.destination.beneficiaryName", plain}, {lang.Mark("tag"), "transfer.tag", plain}, {lang.Mark("conflict"), "transfer.conflict", plain}},
	"/correspondent_bank_transfers/watch": {
		{lang.Mark("transfer"), "transfer.id", transactionID}, {lang.Mark("event"), "eventType", plain}, {lang.Mark("state"), "transfer.state", status},
		{lang.Mark("amount"), "transfer.amount", amount}, {lang.Mark("purpose"), "transfer.purpose", plain}},
	"/manual_transactions/watch": {
		{lang.Mark("transaction"), "transactionId", transactionID}, {lang.Mark("instrument"), "targetInstrument.id", plain},
		{lang.Mark("available balance change"), "availableBalanceAdjustment", plain}, {lang.Mark("actual balance change"), "actualBalanceAdjustment", plain}},
	"/fees/watch": {
		{lang.Mark("fee"), "chargeFee.id", transactionID}, {lang.Mark("event"), "type", status}, {lang.Mark("fee type"), "chargeFee.feeType", plain},
		{lang.Mark("charged to"), "chargeFee.source.id", plain}},
	"/login/watch": {
		{lang.Mark("credential"), "credential.id", plain}, {lang.Mark("login type"), "type", plain}, {lang.Mark("status"), "status", status}},
	"/stepup/watch": {
		{lang.Mark("challenge"), "challengeId", plain}, {lang.Mark("credential"), "credential.id", plain}, {lang.Mark("status"), "status", status}},
	"/auth/users/user_deactivated/watch": identityDeactivated,
	"/authentication_factors/watch": {
		{lang.Mark("credential"), "credentialId.id", plain}, {lang.Mark("factor"), "type", plain}, {lang.Mark("status"), "status", status}},
	"/beneficiaries/batch/watch": {
		{lang.Mark("batch"), "id", plain}, {lang.Mark("operation"), "operation", plain}, {lang.Mark("event"), "eventType", status}},
	"/bulk_process_end/watch": {
		{lang.Mark("bulk"), "bulkId", bulkID}, {lang.Mark("status"), "status", status}, {lang.Mark("submitted"), "submittedItemsCount", count},
		{lang.Mark("operations"), "operationStatusCounts", counts}},
}

var identityActivated = []fieldSpec{{"email", "emailAddress", plain}, {"done by", "actionDoneBy", plain}}

var identityDeactivated = []fieldSpec{{"email", "emailAddress", plain}, {"reason", "reasonCode", status}, {"done by", "actionDoneBy", plain}}

// Summarize picks the key fields of an event's payload. It never fails: a
// payload that is not a JSON object, or lacks a field, gives a summary with
// what there is.
func Summarize(eventType string, body []byte, publishedAt time.Time) Summary {
	path := CanonicalPath(eventType)
	s := Summary{Type: path, Title: path, Time: publishedAt, Fields: []Field{}}
	if t, ok := LookupType(path); ok {
		s.Title = t.Title
	}
	var payload map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&payload); err != nil || payload == nil {
		s.Problem = "the payload is not a JSON object"
		return s
	}
	for _, spec := range summaryFields[path] {
		v, ok := lookup(payload, spec.path)
		if !ok {
			continue
		}
		var text string
		switch spec.role {
		case amount:
			a, ok := asAmount(v)
			if !ok {
				continue
			}
			s.Amount = &a
			text = a.Text()
		case count:
			text = formatCount(formatValue(v))
		case counts:
			text = formatCounts(v)
		default:
			text = formatValue(v)
		}
		if text == "" {
			continue
		}
		f := Field{Label: spec.label, Value: text, Path: spec.path}
		switch spec.role {
		case bulkID:
			s.BulkID = text
		case transactionID:
			s.TransactionID = text
		case status:
			// Kept as the API writes it, to filter on; shown in words.
			s.Status = text
			f.Value, f.Role, f.Raw = stateText(text), RoleState, text
		case amount:
			f.Role = RoleAmount
		case count:
			f.Role = RoleCount
		case counts:
			f.Role, f.Counts = RoleCounts, stateCounts(v)
		}
		s.Fields = append(s.Fields, f)
	}
	return s
}

// lookup follows a dotted path through nested objects.
func lookup(v any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[key]; !ok || v == nil {
			return nil, false
		}
	}
	return v, true
}

// formatValue writes a scalar, or a list of scalars, as text.
func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			if s := formatValue(e); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	default:
		return ""
	}
}

func asAmount(v any) (Amount, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return Amount{}, false
	}
	cur, _ := obj["currency"].(string)
	minor := formatValue(obj["amount"])
	if cur == "" || minor == "" {
		return Amount{}, false
	}
	return Amount{Currency: cur, Minor: minor}, true
}

// formatCount groups the digits of a whole number ("10,000"); anything
// else is shown as it came.
func formatCount(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return s
	}
	return money.FormatWith(n, 0, money.Point)
}

// stateWord writes a state for people: "PARTIALLY_COMPLETED" as
// "partially completed".
func stateWord(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", " "))
}

// stateText writes a state as a phrase: "Partially completed".
func stateText(s string) string {
	w := stateWord(s)
	if w == "" || w[0] < 'a' || w[0] > 'z' {
		return w
	}
	return string(w[0]-'a'+'A') + w[1:]
}

// formatCounts writes [{status, count}, …] as "9,990 completed, 10 failed".
func formatCounts(v any) string {
	list := stateCounts(v)
	parts := make([]string, 0, len(list))
	for _, c := range list {
		parts = append(parts, formatCount(c.Count)+" "+stateWord(c.State))
	}
	return strings.Join(parts, ", ")
}

// stateCounts reads [{status, count}, …], leaving out what is not one.
func stateCounts(v any) []StateCount {
	list, _ := v.([]any)
	var out []StateCount
	for _, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			continue
		}
		st, n := formatValue(obj["status"]), formatValue(obj["count"])
		if st != "" && n != "" {
			out = append(out, StateCount{State: st, Count: n})
		}
	}
	return out
}
