package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestTemplateWritesAFileThatChecksWithoutMapping(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"blocks.xlsx", "blocks.csv"} {
		out := filepath.Join(dir, name)
		code, stdout, stderr := runCLI(t, "template", "-kind", "card_blocks", "-o", out)
		if code != exitOK || !strings.Contains(stdout, "wrote "+out) {
			t.Fatalf("exit %d %s %s", code, stdout, stderr)
		}
		// The template alone holds only the example row: no element yet.
		code, stdout, _ = runCLI(t, "check", "-kind", "card_blocks", out)
		if code != exitInvalid || !strings.Contains(stdout, "1 of 1 columns mapped") || !strings.Contains(stdout, "row 2 is the template's example row, unchanged; it is left out") {
			t.Errorf("%s: exit %d\n%s", name, code, stdout)
		}
	}
}

func TestTemplateUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"template", "-kind", "card_blocks"}, "usage: bulkdesk template"},
		{[]string{"template", "-kind", "nope", "-o", "x.xlsx"}, `unknown bulk kind "nope"`},
		{[]string{"template", "-kind", "sends", "-backoffice", "-o", "x.xlsx"}, "no back-office variant"},
		{[]string{"template", "-kind", "sends", "-o", "x.pdf"}, "must end in .xlsx or .csv"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%v: exit %d %q", tc.args, code, stderr)
		}
	}
}
