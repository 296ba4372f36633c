package schema

import "github.com/bulkdesk/bulkdesk/app/keyfields"

// KeyFields reads the key fields of an element of this kind (decoded as
// by DecodeJSON): who receives, the amount, the reference and the source,
// which every list of elements and operations shows (see app/keyfields).
func (k *Kind) KeyFields(element any) keyfields.Fields {
	return keyfields.Of(keyfields.Spec{Receiver: k.Receiver, ReceiverType: k.ReceiverType, Amount: k.Amount, Reference: k.Reference, Source: k.Source}, element)
}

// AmountObject returns an element's sum of money, the {currency, amount}
// object at the kind's Amount, as the element holds it; nil for a kind
// that moves no money or an element without it. It is the one place the
// amount of an element is looked up: totals, plausibility checks and key
// fields read it from here. It allocates nothing.
func (k *Kind) AmountObject(element any) any {
	if k.Amount == "" {
		return nil
	}
	return keyfields.Find(element, k.Amount)
}

// SourceObject returns the instrument an element's money leaves, the value
// at the kind's Source; nil for a kind without one.
func (k *Kind) SourceObject(element any) any {
	if k.Source == "" {
		return nil
	}
	return keyfields.Find(element, k.Source)
}
