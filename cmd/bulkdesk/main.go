// Command bulkdesk is the native side of Bulkdesk: it checks bulk request
// files against the API's contract and serves the browser console.
//
// Each subcommand lives in its own file and is a function from arguments
// and output streams to an exit code, so that tests run it in-process.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// Exit codes shared by the subcommands.
const (
	exitOK      = 0
	exitInvalid = 1 // the input was read and has errors
	exitUsage   = 2 // bad arguments, or input that cannot be read
)

// A command is one subcommand.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"check":    {"validate a bulk request file against its kind's contract", runCheck},
	"template": {"write a spreadsheet template of a bulk kind to fill in", runTemplate},
	"serve":    {"serve the browser console", runServe},
	"sandbox":  {"serve a stand-in for the bulk API on 127.0.0.1", runSandbox},
	"submit":   {"submit a request file as bulks, exactly once", runSubmit},
	"journal":  {"list the submissions the journal holds, or forget one", runJournal},
	"bulks":    {"list, read, execute, pause, resume or cancel bulk processes", runBulks},
	"webhook":  {"verify, sign and send signed webhook events", runWebhook},
	"contract": {"derive the element schemas from the API's OpenAPI file, or compare one with the built-in contract", runContract},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bulkdesk: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	// Every command prints text from outside (file names, cells, receipts,
	// the API's answers): none of it may reach the terminal as a control
	// character it would obey.
	out, errOut := termsafe.NewWriter(stdout), termsafe.NewWriter(stderr)
	defer errOut.Flush()
	defer out.Flush()
	return cmd.run(args[1:], stdin, out, errOut)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bulkdesk <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "bulkdesk <command> -h" for a command's flags.`)
}

// kindList is the list of kind ids for flag help.
func kindList(ids []string) string { return strings.Join(ids, ", ") }
