// Package money holds amounts exactly: integer minor units of an ISO 4217
// currency, parsed from the text operators and files write ("1.234,56",
// "12.34", "1050") and formatted for people ("EUR 12,345.67").
//
// Nothing here rounds. A text that does not fit the currency or the
// separators exactly is an error that says why, because an amount misread
// by a factor of 100 is the costliest mistake a bulk of transfers can make.
//
//	n, err := money.ParseMajor("1.234,56", 2, money.Separators{Decimal: ',', Group: '.'})
//	// n == 123456
//	money.Format(123456, "EUR") // "EUR 1,234.56"
//
// Control totals are summed here too, exactly and whatever their size, by
// currency, with the amounts whose currency is not valid in one total of
// their own ([Totals]); the review, the confirmation before a submission and
// a submitted bulk's facts all use it, and [FormatBig] writes sums beyond
// 64 bits as [Format] writes the others.
package money

import "strings"

// digits maps ISO 4217 codes to their number of minor units. Currencies
// with 2 are the default and listed only where a reader might doubt it.
var digits = map[string]int{
	// No minor unit.
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0,
	"PYG": 0, "RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	// Three.
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	// Four.
	"CLF": 4, "UYW": 4,
}

// known lists the active ISO 4217 codes with two minor units.
var known = strings.Fields(`AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL
BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR
FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK
LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD
PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP
SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL`)

func init() {
	for _, c := range known {
		if _, ok := digits[c]; !ok {
			digits[c] = 2
		}
	}
}

// Digits returns the number of minor units of an ISO 4217 currency code:
// 2 for EUR (cents), 0 for JPY, 3 for BHD. ok is false for codes that are
// not active currencies.
func Digits(code string) (n int, ok bool) {
	n, ok = digits[code]
	return n, ok
}

// Valid reports whether code is an active ISO 4217 currency code written
// as the API requires it, in upper case: "EUR" is, "eur", "EURO" and ""
// are not.
func Valid(code string) bool {
	_, ok := digits[code]
	return ok
}

// InvalidCurrency labels the one total of the amounts whose currency is
// not Valid: control totals sum them together, apart from every real
// currency, rather than give "eur" or "EURO" a row of its own.
const InvalidCurrency = "invalid currency"
