package schema

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/keyfields"
)

// An Endpoint is where a bulk request is submitted: an HTTP method and a path
// relative to the API's base URL (for example https://…/multi).
type Endpoint struct {
	Method string
	Path   string
}

func (e Endpoint) String() string { return e.Method + " " + e.Path }

// A Kind is one sort of bulk the API accepts: every element of a request of
// that kind is processed as the same single operation.
type Kind struct {
	// ID names the kind everywhere: on the command line, in URLs and in file names.
	ID string
	// Title is the kind's name for operators.
	Title string
	// Standard is the submission endpoint on the standard API.
	Standard Endpoint
	// BackOffice is the submission endpoint on the back-office API, or nil
	// where the back-office API has no such bulk. The back-office reference
	// gives these bulks the same element contract as the standard ones.
	BackOffice *Endpoint
	// PathParam is the key under "pathParams" that names the resource each
	// element acts on ("_id_", "_user_id_"), or "" when there is none.
	PathParam string
	// Operation is the single operation each element is processed as.
	Operation Endpoint
	// Amount is the dotted path of the element's sum of money (currency and
	// amount in minor units) for kinds that move money, or "".
	Amount string
	// Source is the dotted path of the instrument the money leaves, or "".
	Source string
	// Receiver is the dotted path of whom an element pays or what it acts
	// on, below the requestBody or, beginning "pathParams.", below the
	// element; "" is the requestBody itself. ReceiverType names what an
	// id found there is ("managed_cards"), or is keyfields.Person for a
	// person written out. See KeyFields.
	Receiver     string
	ReceiverType string
	// Reference is the dotted path of a payment's reference, or "".
	Reference string
	// Identity are the fields that tell one element from the next for an
	// operator (whom it pays, which card it blocks), the better first:
	// the review table keeps the first it shows in sight as it scrolls
	// sideways, beside the row numbers.
	Identity []string
}

// Endpoint returns where a request of this kind is submitted, on the
// back-office API when backOffice is set.
func (k *Kind) Endpoint(backOffice bool) (Endpoint, error) {
	if !backOffice {
		return k.Standard, nil
	}
	if k.BackOffice == nil {
		return Endpoint{}, fmt.Errorf("bulk kind %q has no back-office variant (only %s)", k.ID, strings.Join(backOfficeKindIDs(), ", "))
	}
	return *k.BackOffice, nil
}

// MovesMoney reports whether elements of this kind carry an amount.
func (k *Kind) MovesMoney() bool { return k.Amount != "" }

var kinds = []*Kind{
	{
		ID:        "users",
		Title:     "Create users",
		Standard:  Endpoint{"POST", "/bulks/users"},
		Operation: Endpoint{"POST", "/users"},
		Identity:  []string{"email", "surname"},
		// Receiver "": the user the element creates.
		ReceiverType: keyfields.Person,
	},
	{
		ID:           "user_invites",
		Title:        "Send user invites",
		Standard:     Endpoint{"POST", "/bulks/users/_user_id_/invite"},
		PathParam:    "_user_id_",
		Operation:    Endpoint{"POST", "/users/{user_id}/invite"},
		Identity:     []string{"pathParams._user_id_"},
		Receiver:     "pathParams._user_id_",
		ReceiverType: "users",
	},
	{
		ID:           "card_blocks",
		Title:        "Block cards",
		Standard:     Endpoint{"POST", "/bulks/managed_cards/_id_/block"},
		PathParam:    "_id_",
		Operation:    Endpoint{"POST", "/managed_cards/{id}/block"},
		Identity:     []string{"pathParams._id_"},
		Receiver:     "pathParams._id_",
		ReceiverType: "managed_cards",
	},
	{
		ID:           "card_unblocks",
		Title:        "Unblock cards",
		Standard:     Endpoint{"POST", "/bulks/managed_cards/_id_/unblock"},
		PathParam:    "_id_",
		Operation:    Endpoint{"POST", "/managed_cards/{id}/unblock"},
		Identity:     []string{"pathParams._id_"},
		Receiver:     "pathParams._id_",
		ReceiverType: "managed_cards",
	},
	{
		ID:           "card_removals",
		Title:        "Remove cards",
		Standard:     Endpoint{"POST", "/bulks/managed_cards/_id_/remove"},
		PathParam:    "_id_",
		Operation:    Endpoint{"POST", "/managed_cards/{id}/remove"},
		Identity:     []string{"pathParams._id_"},
		Receiver:     "pathParams._id_",
		ReceiverType: "managed_cards",
	},
	{
		ID:           "card_spend_rules",
		Title:        "Update card spend rules",
		Standard:     Endpoint{"PATCH", "/bulks/managed_cards/_id_/spend_rules"},
		BackOffice:   &Endpoint{"PATCH", "/bulks/managed_cards/_id_/spend_rules"},
		PathParam:    "_id_",
		Operation:    Endpoint{"PATCH", "/managed_cards/{id}/spend_rules"},
		Identity:     []string{"pathParams._id_"},
		Receiver:     "pathParams._id_",
		ReceiverType: "managed_cards",
	},
	{
		ID:         "transfers",
		Title:      "Create transfers",
		Standard:   Endpoint{"POST", "/bulks/transfers"},
		BackOffice: &Endpoint{"POST", "/bulks/transfers"},
		Operation:  Endpoint{"POST", "/transfers"},
		Amount:     "destinationAmount",
		Source:     "source",
		Identity:   []string{"destination.id"},

		Receiver:  "destination",
		Reference: "description",
	},
	{
		ID:        "sends",
		Title:     "Create sends",
		Standard:  Endpoint{"POST", "/bulks/sends"},
		Operation: Endpoint{"POST", "/sends"},
		Amount:    "destinationAmount",
		Source:    "source",
		Identity:  []string{"destination.beneficiaryId", "destination.id"},

		Receiver:  "destination",
		Reference: "description",
	},
	{
		ID:        "outgoing_wire_transfers",
		Title:     "Create outgoing wire transfers",
		Standard:  Endpoint{"POST", "/bulks/outgoing_wire_transfers"},
		Operation: Endpoint{"POST", "/outgoing_wire_transfers"},
		Amount:    "transferAmount",
		Source:    "sourceInstrument",
		Identity:  []string{"destinationBeneficiary.name", "destinationBeneficiary.iban", "destinationBeneficiary.accountNumber"},
		Receiver:  "destinationBeneficiary",
		Reference: "description",
	},
}

// Kinds returns every bulk kind, in a stable order meant for menus.
func Kinds() []*Kind { return kinds }

// Lookup returns the kind with the given id.
func Lookup(id string) (*Kind, error) {
	for _, k := range kinds {
		if k.ID == id {
			return k, nil
		}
	}
	return nil, fmt.Errorf("unknown bulk kind %q (known kinds: %s)", id, strings.Join(KindIDs(), ", "))
}

// KindIDs returns the id of every kind, sorted.
func KindIDs() []string {
	ids := make([]string, len(kinds))
	for i, k := range kinds {
		ids[i] = k.ID
	}
	sort.Strings(ids)
	return ids
}

func backOfficeKindIDs() []string {
	var ids []string
	for _, k := range kinds {
		if k.BackOffice != nil {
			ids = append(ids, k.ID)
		}
	}
	return ids
}

// A Target is where a contract defines a kind's elements: the kind and its
// submission operation. Reading a contract file looks these up.
type Target struct{ Kind, Method, Path string }

// Targets lists every kind's submission operation. The back-office API
// submits its bulks at the same paths, so one list serves both.
func Targets() []Target {
	out := make([]Target, len(kinds))
	for i, k := range kinds {
		out[i] = Target{k.ID, k.Standard.Method, k.Standard.Path}
	}
	return out
}
