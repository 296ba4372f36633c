package main

import (
	"strings"
	"testing"
)

// eudCSV is a file of two transfers, the second in EUD: three capital
// letters, as the contract's pattern wants, but no ISO 4217 currency.
const eudCSV = "profileId,source.type,source.id,destination.type,destination.id,destinationAmount.currency,destinationAmount.amount\n" +
	"110321,managed_accounts,1001,managed_cards,2001,EUR,2500\n" +
	"110321,managed_accounts,1001,managed_cards,2002,EUD,1200\n"

const eudWarning = "EUD is not an ISO 4217 currency code (did you mean AUD or EUR?)"

// check names a currency that does not exist at its cell and says the
// file is valid (exit 0); with -strict the same is an error (exit 1).
func TestCheckNamesACurrencyThatDoesNotExist(t *testing.T) {
	file := writeFile(t, "pay.csv", eudCSV)
	code, out, errOut := runCLI(t, "check", "-kind", "transfers", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, %s%s", code, out, errOut)
	}
	if !strings.Contains(out, "pay!F3 (destinationAmount.currency): warning: "+eudWarning) || !strings.Contains(out, "valid: 0 of 2 elements invalid, 0 errors, 1 warning") {
		t.Errorf("report:\n%s", out)
	}
	code, out, _ = runCLI(t, "check", "-kind", "transfers", "-strict", file)
	if code != exitInvalid || !strings.Contains(out, "pay!F3 (destinationAmount.currency): error: "+eudWarning) || !strings.Contains(out, "INVALID: 1 of 2 elements invalid, 1 error") {
		t.Errorf("-strict: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "check", "-kind", "transfers", "-lang", "de", file)
	if code != exitOK || !strings.Contains(out, "EUD ist kein ISO-4217-Währungscode (meinten Sie AUD oder EUR?)") {
		t.Errorf("-lang de: exit %d\n%s", code, out)
	}
}

// submit prints the warning before it sends; with -strict it sends
// nothing.
func TestSubmitShowsACurrencyThatDoesNotExist(t *testing.T) {
	api := startSandboxCommand(t)
	useSandboxCredentials(t)
	file := writeFile(t, "pay.csv", eudCSV)
	code, _, errOut := runCLI(t, "submit", "-kind", "transfers", "-api-url", api, "-strict", file)
	if code != exitInvalid || !strings.Contains(errOut, eudWarning) || strings.Contains(errOut, "sending") {
		t.Fatalf("-strict: exit %d, %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "submit", "-kind", "transfers", "-api-url", api, file)
	warned, sent := strings.Index(errOut, "warning: pay!F3 (destinationAmount.currency): "+eudWarning), strings.Index(errOut, "sending")
	if code != exitOK || warned < 0 || sent < warned {
		t.Errorf("exit %d, want the warning before the bulk is sent:\n%s", code, errOut)
	}
}
