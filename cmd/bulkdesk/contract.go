package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
	"github.com/bulkdesk/bulkdesk/schema"
	"github.com/bulkdesk/bulkdesk/schema/contract"
	"github.com/bulkdesk/bulkdesk/schema/contract/load"
)

// maxContractSize bounds a contract file: the API's own is under 1 MB.
const maxContractSize = 32 << 20

// contractFlags choose the contract a command checks against: the built-in
// one unless -contract names a newer OpenAPI file, and whether the
// overlay's advice counts as errors.
type contractFlags struct {
	file   string
	strict bool
	lang   langFlag
}

func (c *contractFlags) register(fs *flag.FlagSet) {
	c.registerFile(fs)
	c.registerLang(fs)
	fs.BoolVar(&c.strict, "strict", false, "treat the API documentation's rules and likely mistakes (the overlay's advice) as errors")
}

// registerFile adds -contract alone, for commands that check nothing.
func (c *contractFlags) registerFile(fs *flag.FlagSet) {
	fs.StringVar(&c.file, "contract", "", "use this OpenAPI file (YAML or JSON) of the API instead of the built-in contract")
}

// registerLang adds -lang, for commands that explain.
func (c *contractFlags) registerLang(fs *flag.FlagSet) {
	fs.Var(&c.lang, "lang", "the `language` of the messages and explanations: en, de or fr")
}

// langFlag is -lang: a language the console speaks, English by default.
type langFlag struct{ tag lang.Tag }

func (f *langFlag) String() string {
	if f == nil || f.tag == "" {
		return string(lang.English)
	}
	return string(f.tag)
}

func (f *langFlag) Set(s string) error {
	l, ok := lang.Parse(s)
	if !ok {
		return fmt.Errorf("%q is not a language Bulkdesk speaks: choose en, de or fr", s)
	}
	f.tag = l
	return nil
}

// validator returns the Validator the flags choose. A contract file is
// read once; what its reader did not understand is said on stderr.
func (c *contractFlags) validator(command string, stderr io.Writer) (*schema.Validator, error) {
	if c.file == "" && !c.strict && (c.lang.tag == "" || c.lang.tag == lang.English) {
		return schema.Default(), nil
	}
	src := schema.Builtin()
	if c.file != "" {
		ct, err := readContract(c.file, true)
		if err != nil {
			return nil, err
		}
		for _, n := range ct.Notes {
			if n.Action == "not understood" {
				termsafe.Fprintf(stderr, "bulkdesk %s: %s: %s: %s\n", command, c.file, n.Place, n.Text)
			}
		}
		src = load.Source(ct)
	}
	return schema.NewValidatorFor(src, schema.Options{Strict: c.strict, Language: c.lang.tag})
}

// readContract derives every kind's element schema from an OpenAPI file.
func readContract(path string, keepDescriptions bool) (*contract.Contract, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxContractSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if len(data) > maxContractSize {
		return nil, fmt.Errorf("%s: larger than %d MiB: not an API contract", path, maxContractSize>>20)
	}
	return load.Derive(path, data, contract.Options{KeepDescriptions: keepDescriptions})
}

// runContract implements "bulkdesk contract": derive the element schemas
// from an OpenAPI file, or say how one differs from the built-in contract.
func runContract(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "usage: bulkdesk contract derive -o DIR OPENAPI.yml")
		fmt.Fprintln(stderr, "       bulkdesk contract diff OPENAPI.yml")
		fmt.Fprintln(stderr, "       bulkdesk contract overlay")
		fmt.Fprintln(stderr, "\nderive writes each bulk kind's element schema (facts only: no descriptions) to DIR/KIND.json;")
		fmt.Fprintln(stderr, "diff lists, per kind, how the file's fields differ from the built-in contract;")
		fmt.Fprintln(stderr, "overlay lists this program's decisions on top of the contract.")
	}
	if len(args) == 0 {
		usage()
		return exitUsage
	}
	switch args[0] {
	case "derive":
		return contractDerive(args[1:], stdout, stderr, usage)
	case "diff":
		return contractDiff(args[1:], stdout, stderr, usage)
	case "overlay":
		for _, e := range schema.TheOverlay().Entries {
			termsafe.Fprintf(stdout, "%-30s %-8s %s: %s\n  %s\n", e.ID, e.Severity, strings.Join(e.Kinds, ", "), e.Rule.Describe(), e.Why)
		}
		return exitOK
	case "-h", "-help", "--help", "help":
		usage()
		return exitOK
	}
	termsafe.Fprintf(stderr, "bulkdesk contract: unknown subcommand %q\n", args[0])
	usage()
	return exitUsage
}

func contractDerive(args []string, stdout, stderr io.Writer, usage func()) int {
	fs := flag.NewFlagSet("contract derive", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the directory to write KIND.json files to")
	fs.Usage = usage
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 || *out == "" {
		usage()
		return exitUsage
	}
	ct, err := readContract(fs.Arg(0), false)
	if err == nil {
		err = ct.WriteDir(*out)
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk contract derive:", err)
		return exitInvalid
	}
	for _, n := range ct.Notes {
		termsafe.Fprintf(stderr, "%s %s: %s\n", n.Action, n.Place, n.Text)
	}
	for _, m := range ct.Missing {
		termsafe.Fprintf(stderr, "no %s bulk (%s %s) in %s\n", m.Kind, m.Method, m.Path, fs.Arg(0))
	}
	termsafe.Fprintf(stdout, "wrote %d schemas to %s\n", len(ct.Schemas), *out)
	return exitOK
}

func contractDiff(args []string, stdout, stderr io.Writer, usage func()) int {
	if len(args) != 1 {
		usage()
		return exitUsage
	}
	ct, err := readContract(args[0], true)
	var newer *schema.Validator
	if err == nil {
		newer, err = schema.NewValidatorFor(load.Source(ct), schema.Options{})
	}
	if err != nil {
		termsafe.Fprintln(stderr, "bulkdesk contract diff:", err)
		return exitInvalid
	}
	termsafe.Fprintf(stdout, "%s (%s %s) against the built-in contract:\n", args[0], ct.Title, ct.Version)
	for _, k := range schema.Kinds() {
		changes := schema.Compare(k, schema.Default(), newer)
		skipped := newer.Skipped(k)
		if len(changes) == 0 && len(skipped) == 0 {
			termsafe.Fprintf(stdout, "  %s: the same\n", k.ID)
			continue
		}
		termsafe.Fprintf(stdout, "  %s:\n", k.ID)
		for _, c := range changes {
			field := c.Field
			if field == "" {
				field = "(the kind)"
			}
			termsafe.Fprintf(stdout, "    %s: %s\n", field, c.What)
		}
		for _, s := range skipped {
			termsafe.Fprintf(stdout, "    overlay entry not applied: %s\n", s)
		}
	}
	for _, n := range ct.Notes {
		if n.Action == "not understood" {
			termsafe.Fprintf(stdout, "  not understood, left out: %s: %s\n", n.Place, n.Text)
		}
	}
	return exitOK
}
