package main

import (
	"github.com/bulkdesk/bulkdesk/app/ingest"
	"github.com/bulkdesk/bulkdesk/schema"
)

// cliMessage is a problem's message as the command line prints it: a date
// read without a time zone names the flag that gives one.
func cliMessage(p schema.Problem) string {
	if p.Code == ingest.TimeZoneCode {
		return p.Message + " (-time-zone Europe/Berlin)"
	}
	return p.Message
}
