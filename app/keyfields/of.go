package keyfields

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/money"
)

// A Spec says where the elements of a kind hold their key fields. Paths
// are dotted keys below the element's requestBody, or below the element
// when they begin with "pathParams." ("destination",
// "pathParams._id_"), as schema.Kind writes its paths; "" means the kind
// has no such field.
type Spec struct {
	// Receiver is the path of whom an element pays or what it acts on;
	// ReceiverType is the type of what it names when the value there is
	// an id alone (a path parameter's "managed_cards"), or Person when
	// it is a person written out. A Receiver of "" with ReceiverType
	// Person is the requestBody itself: the user an element creates.
	Receiver     string
	ReceiverType string
	// Amount is the path of the {currency, amount} object.
	Amount string
	// Reference is the path of the payment's reference.
	Reference string
	// Source is the path of the instrument the money leaves.
	Source string
}

// Of reads the key fields of element (decoded as by schema.DecodeJSON),
// of a kind whose fields s locates.
func Of(s Spec, element any) Fields {
	var f Fields
	if s.Receiver != "" || s.ReceiverType == Person {
		f.Counterparty = counterpartyOf(Find(element, s.Receiver), s.ReceiverType)
	}
	if s.Amount != "" {
		if cur, minor, ok := money.AmountOf(Find(element, s.Amount)); ok {
			f.Amount = &Amount{Currency: cur, Minor: minor.String()}
		}
	}
	if s.Reference != "" {
		f.Reference = text(Find(element, s.Reference))
	}
	if s.Source != "" {
		f.Source = SourceName(Find(element, s.Source))
	}
	return f
}

// Find returns the value at path in an element (see Spec for paths), or
// nil. An empty path is the requestBody. It allocates nothing, as the
// review of 10,000 elements calls it for each.
func Find(element any, path string) any {
	v := element
	if rest, ok := strings.CutPrefix(path, "pathParams."); ok {
		v, path = field(v, "pathParams"), rest
	} else {
		v = field(v, "requestBody")
	}
	for path != "" && v != nil {
		var key string
		key, path, _ = strings.Cut(path, ".")
		v = field(v, key)
	}
	return v
}

func field(v any, key string) any {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return obj[key]
}

// SourceName names an instrument as the review's totals per source do:
// its type and id ("managed_accounts 1000001"); a value that is not an
// object is written as it is.
func SourceName(v any) string {
	switch src := v.(type) {
	case nil:
		return ""
	case map[string]any:
		return strings.TrimSpace(text(src["type"]) + " " + text(src["id"]))
	}
	return text(v)
}

// counterpartyOf reads whom v, the value at a kind's Receiver, names.
func counterpartyOf(v any, typ string) Counterparty {
	obj, isObj := v.(map[string]any)
	switch {
	case v == nil:
		return Counterparty{}
	case !isObj:
		return Counterparty{Type: typ, ID: text(v)}
	case typ == Person:
		name := strings.TrimSpace(text(obj["name"]) + " " + text(obj["surname"]))
		return Counterparty{Type: Person, Name: name, Email: text(obj["email"])}
	case obj["beneficiaryId"] != nil:
		return Counterparty{Type: Beneficiary, ID: text(obj["beneficiaryId"])}
	case obj["name"] != nil || obj["iban"] != nil || obj["accountNumber"] != nil || obj["account"] != nil || obj["bankAccountDetails"] != nil:
		c := Counterparty{Type: BankAccount, Name: text(obj["name"])}
		bankAccount(&c, obj)
		// The older form holds the account in bankAccountDetails.
		if details, ok := obj["bankAccountDetails"].(map[string]any); ok {
			bankAccount(&c, details)
		}
		return c
	}
	return Counterparty{Type: text(obj["type"]), ID: text(obj["id"])}
}

func bankAccount(c *Counterparty, obj map[string]any) {
	set := func(dst *string, key string) {
		if s := text(obj[key]); s != "" {
			*dst = s
		}
	}
	set(&c.IBAN, "iban")
	set(&c.AccountNumber, "accountNumber")
	set(&c.SortCode, "sortCode")
	set(&c.Account, "account")
	set(&c.BIC, "bankIdentifierCode")
}

// text writes a scalar as the element holds it; anything else as JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
