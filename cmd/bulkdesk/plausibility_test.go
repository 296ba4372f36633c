package main

import (
	"strings"
	"testing"
)

const limitsCSV = "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
	"110321,managed_accounts,1001,managed_cards,2001,EUR,25000\n" +
	"110321,managed_accounts,1001,managed_cards,2002,EUR,1200000\n" +
	"110321,managed_accounts,1001,managed_cards,2003,GBP,900000\n"

func TestCheckMaxAmount(t *testing.T) {
	file := writeFile(t, "pay.csv", limitsCSV)
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitOK || errOut != "" || strings.Contains(out, "limit") {
		t.Fatalf("without limits: exit %d, %s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "check", "-kind", "transfers", "-max-amount", "EUR:10000", "-max-amount", "gbp:10,000.00", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("with limits: exit %d, %s", code, errOut)
	}
	want := "pay!G3: warning: destinationAmount.amount: EUR 12,000.00 is above the limit of EUR 10,000.00 set for EUR amounts: check it, or raise the limit"
	if !strings.Contains(out, want) || strings.Contains(out, "pay!G4") || !strings.Contains(out, "valid: 0 of 3 elements invalid, 0 errors, 1 warning") {
		t.Errorf("report:\n%s\nwant\n%s", out, want)
	}
	// A request body gets the same check.
	body := writeFile(t, "req.json", `[
  {"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "2"}, "destinationAmount": {"currency": "EUR", "amount": 100}}},
  {"requestBody": {"profileId": "1", "source": {"type": "managed_accounts", "id": "1"}, "destination": {"type": "managed_cards", "id": "3"}, "destinationAmount": {"currency": "EUR", "amount": 2000000}}}
]`)
	code, out, _ = runCLI(t, "check", "-kind", "transfers", "-format", "json", "-max-amount", "EUR:10000", body)
	if code != exitOK || !strings.Contains(out, `"code": "amount-above-limit"`) || !strings.Contains(out, `"element": 1`) {
		t.Errorf("request body: exit %d\n%s", code, out)
	}
}

func TestMaxAmountUsageErrors(t *testing.T) {
	file := writeFile(t, "pay.csv", limitsCSV)
	for _, bad := range []string{"EURO:10", "EUR", "EUR:0", "EUR:10.001", "EUR:ten"} {
		for _, cmd := range []string{"check", "submit"} {
			code, _, errOut := runCLI(t, cmd, "-kind", "transfers", "-max-amount", bad, file)
			if code != exitUsage || !strings.Contains(errOut, "-max-amount") || !strings.Contains(errOut, bad) {
				t.Errorf("%s -max-amount %s: exit %d, %s", cmd, bad, code, errOut)
			}
		}
	}
	code, _, errOut := runCLI(t, "check", "-kind", "transfers", "-max-amount", "EUR:10", "-max-amount", "EUR:20", file)
	if code != exitUsage || !strings.Contains(errOut, "EUR already has a limit") {
		t.Errorf("two limits for EUR: exit %d, %s", code, errOut)
	}
}

func TestSubmitShowsLimitWarnings(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "pay.csv", limitsCSV)
	code, _, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-max-amount", "EUR:10000", file)
	if code != exitOK || !strings.Contains(errOut, "warning: pay!G3: destinationAmount.amount: EUR 12,000.00 is above the limit") {
		t.Errorf("exit %d, %s", code, errOut)
	}
}

func TestCheckReportsOutliersAndIDLengths(t *testing.T) {
	file := writeFile(t, "pay.csv", "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n"+
		"110321,managed_accounts,1001,managed_cards,2001,EUR,25000\n"+
		"110321,managed_accounts,1001,managed_cards,2002,EUR,25000\n"+
		"110321,managed_accounts,1001,managed_cards,203,EUR,2500000\n"+
		"110321,managed_accounts,1001,managed_cards,2004,EUR,25000\n")
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	for _, want := range []string{
		"pay!G4: warning: destinationAmount.amount: EUR 25,000.00 is 100 times the median EUR 250.00 of this file's EUR amounts",
		`pay!E4: warning: destination.id: the ids of column E have different lengths: 3 of 4 have 4 characters, but E4 ("203") has 3`,
		"valid: 0 of 4 elements invalid, 0 errors, 2 warnings",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// -max-amount reads the plain form in any language, and the amount as
// -lang writes numbers; a value that reads two ways there is refused
// with how to type it.
func TestMaxAmountInTheOperatorsLanguage(t *testing.T) {
	file := writeFile(t, "pay.csv", limitsCSV)
	for _, args := range [][]string{
		{"-lang", "de", "-max-amount", "EUR:10.000,00"},
		{"-lang", "de", "-max-amount", "EUR:10000.00"},
		{"-lang", "fr", "-max-amount", "EUR:10 000,00"},
		{"-lang", "fr", "-max-amount", "eur 10\u202f000"},
		{"-max-amount", "EUR:10,000"},
	} {
		code, out, errOut := runCLI(t, append(append([]string{"check", "-kind", "transfers"}, args...), file)...)
		if code != exitOK || errOut != "" || !strings.Contains(out, "pay!G3: ") && !strings.Contains(out, "pay!G3\u202f: ") || strings.Contains(out, "pay!G4") {
			t.Errorf("%q: exit %d, %s%s", args, code, out, errOut)
		}
	}
	code, _, errOut := runCLI(t, "check", "-kind", "transfers", "-lang", "fr", "-max-amount", "EUR:1.500", file)
	if code != exitUsage || !strings.Contains(errOut, "«\u202fEUR:1.500\u202f» peut se lire de deux façons\u202f: saisissez 1\u202f500,00 ou 1,50") {
		t.Errorf("a limit that reads two ways: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "check", "-kind", "transfers", "-lang", "de", "-max-amount", "EUR:1,500", file)
	if code != exitUsage || !strings.Contains(errOut, "Geben Sie 1.500,00 oder 1,50 ein") {
		t.Errorf("a limit with more decimals than euros have: exit %d, %s", code, errOut)
	}
}
