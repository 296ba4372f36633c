package main

import (
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/schema"
)

// cliMessage is a problem's message as the command line prints it: a date
// read without a time zone names the flag that gives one.
func cliMessage(p schema.Problem, l lang.Tag) string {
	if p.Code == ingest.TimeZoneCode {
		return l.F("%s (-time-zone Europe/Berlin)", p.Message)
	}
	return p.Message
}
