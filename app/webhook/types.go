package webhook

import "strings"

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
	{"/corporates/kyb/watch", "Corporate KYB status", "Corporates"},
	{"/corporates/kyb/beneficiaries/watch", "Corporate beneficiary verification", "Corporates"},
	{"/corporates/corporate_activated/watch", "Corporate activated", "Corporates"},
	{"/corporates/corporate_deactivated/watch", "Corporate deactivated", "Corporates"},
	{"/consumers/kyc/watch", "Consumer KYC status", "Consumers"},
	{"/consumers/consumer_activated/watch", "Consumer activated", "Consumers"},
	{"/consumers/consumer_deactivated/watch", "Consumer deactivated", "Consumers"},
	{"/ibans/watch", "IBAN", "IBANs"},
	{"/linked_accounts/watch", "Linked account", "Linked accounts"},
	{"/managed_accounts/watch", "Managed account", "Managed accounts"},
	{"/managed_accounts/deposits/watch", "Incoming wire transfer", "Managed accounts"},
	{"/managed_accounts/low_balance/watch", "Low balance", "Managed accounts"},
	{"/managed_cards/state_change/watch", "Card state change", "Managed cards"},
	{"/managed_cards/authorisations/watch", "Card authorisation", "Managed cards"},
	{"/managed_cards/adjustments/watch", "Card adjustment", "Managed cards"},
	{"/managed_cards/settlements/watch", "Card settlement", "Managed cards"},
	{"/managed_cards/expiries/watch", "Card expiry or renewal", "Managed cards"},
	{"/managed_cards/physical_cards_upgrade/watch", "Physical card upgrade", "Managed cards"},
	{"/managed_cards/replacement/watch", "Card replacement", "Managed cards"},
	{"/managed_cards/payments/watch", "Card payment", "Managed cards"},
	{"/transfers/watch", "Transfer", "Transfers"},
	{"/send/watch", "Send", "Sends"},
	{"/outgoing_wire_transfers/watch", "Outgoing wire transfer", "Outgoing wire transfers"},
	{"/correspondent_bank_transfers/watch", "Correspondent bank transfer", "Correspondent bank transfers"},
	{"/manual_transactions/watch", "Manual transaction", "Manual transactions"},
	{"/fees/watch", "Fee charged", "Fees"},
	{"/login/watch", "Login", "Login"},
	{"/stepup/watch", "Step-up", "Step-up"},
	{"/auth/users/user_deactivated/watch", "Authorised user deactivated", "Authorised users"},
	{"/authentication_factors/watch", "Authentication factor enrolment", "Authentication factors"},
	{"/beneficiaries/batch/watch", "Beneficiary batch", "Trusted payees"},
	{"/bulk_process_end/watch", "Bulk process ended", "Bulk operations"},
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
