package webhook

import (
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
)

// Type is one kind of event, named by the path the API posts it to below
// the receiver's base URL.
type Type struct {
	// Path is the event path of the webhook reference, such as
	// "/bulk_process_end/watch".
	Path string `json:"path"`
	// Title names the event in a few words, for lists and filters.
	Title string `json:"title"`
	// Group is the area of the API the event belongs to.
	Group string `json:"group"`
}

// types lists every event path of the webhook reference, grouped as the
// reference groups them.
var types = []Type{
	{"/corporates/kyb/watch", lang.Mark("Corporate KYB status"), lang.Mark("Corporates")},
	{"/corporates/kyb/beneficiaries/watch", lang.Mark("Corporate beneficiary verification"), lang.Mark("Corporates")},
	{"/corporates/corporate_activated/watch", lang.Mark("Corporate activated"), lang.Mark("Corporates")},
	{"/corporates/corporate_deactivated/watch", lang.Mark("Corporate deactivated"), lang.Mark("Corporates")},
	{"/consumers/kyc/watch", lang.Mark("Consumer KYC status"), lang.Mark("Consumers")},
	{"/consumers/consumer_activated/watch", lang.Mark("Consumer activated"), lang.Mark("Consumers")},
	{"/consumers/consumer_deactivated/watch", lang.Mark("Consumer deactivated"), lang.Mark("Consumers")},
	{"/ibans/watch", lang.Mark("IBAN"), lang.Mark("IBANs")},
	{"/linked_accounts/watch", lang.Mark("Linked account"), lang.Mark("Linked accounts")},
	{"/managed_accounts/watch", lang.Mark("Managed account"), lang.Mark("Managed accounts")},
	{"/managed_accounts/deposits/watch", lang.Mark("Incoming wire transfer"), lang.Mark("Managed accounts")},
	{"/managed_accounts/low_balance/watch", lang.Mark("Low balance"), lang.Mark("Managed accounts")},
	{"/managed_cards/state_change/watch", lang.Mark("Card state change"), lang.Mark("Managed cards")},
	{"/managed_cards/authorisations/watch", lang.Mark("Card authorisation"), lang.Mark("Managed cards")},
	{"/managed_cards/adjustments/watch", lang.Mark("Card adjustment"), lang.Mark("Managed cards")},
	{"/managed_cards/settlements/watch", lang.Mark("Card settlement"), lang.Mark("Managed cards")},
	{"/managed_cards/expiries/watch", lang.Mark("Card expiry or renewal"), lang.Mark("Managed cards")},
	{"/managed_cards/physical_cards_upgrade/watch", lang.Mark("Physical card upgrade"), lang.Mark("Managed cards")},
	{"/managed_cards/replacement/watch", lang.Mark("Card replacement"), lang.Mark("Managed cards")},
	{"/managed_cards/payments/watch", lang.Mark("Card payment"), lang.Mark("Managed cards")},
	{"/transfers/watch", lang.Mark("Transfer"), lang.Mark("Transfers")},
	{"/send/watch", lang.Mark("Send"), lang.Mark("Sends")},
	{"/outgoing_wire_transfers/watch", lang.Mark("Outgoing wire transfer"), lang.Mark("Outgoing wire transfers")},
	{"/correspondent_bank_transfers/watch", lang.Mark("Correspondent bank transfer"), lang.Mark("Correspondent bank transfers")},
	{"/manual_transactions/watch", lang.Mark("Manual transaction"), lang.Mark("Manual transactions")},
	{"/fees/watch", lang.Mark("Fee charged"), lang.Mark("Fees")},
	{"/login/watch", lang.Mark("Login"), lang.Mark("Login")},
	{"/stepup/watch", lang.Mark("Step-up"), lang.Mark("Step-up")},
	{"/auth/users/user_deactivated/watch", lang.Mark("Authorised user deactivated"), lang.Mark("Authorised users")},
	{"/authentication_factors/watch", lang.Mark("Authentication factor enrolment"), lang.Mark("Authentication factors")},
	{"/beneficiaries/batch/watch", lang.Mark("Beneficiary batch"), lang.Mark("Trusted payees")},
	{"/bulk_process_end/watch", lang.Mark("Bulk process ended"), lang.Mark("Bulk operations")},
}

var typesByPath = func() map[string]Type {
	m := make(map[string]Type, len(types))
	for _, t := range types {
		m[t.Path] = t
	}
	return m
}()

// Types returns every event type, in the order of the webhook reference.
// The slice is a copy.
func Types() []Type { return append([]Type(nil), types...) }

// LookupType returns the event type with the given path. The path may be
// written with or without its leading slash, and with the receiver's
// "/webhooks" prefix, so "bulk_process_end/watch" and
// "/webhooks/bulk_process_end/watch" both find "/bulk_process_end/watch".
func LookupType(path string) (Type, bool) {
	t, ok := typesByPath[CanonicalPath(path)]
	return t, ok
}

// CanonicalPath writes an event path as the reference does: with one
// leading slash and without the receiver's "/webhooks" prefix.
func CanonicalPath(path string) string {
	p := "/" + strings.TrimLeft(path, "/")
	if rest, ok := strings.CutPrefix(p, "/webhooks/"); ok {
		p = "/" + rest
	}
	return p
}
