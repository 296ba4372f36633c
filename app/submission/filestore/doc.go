// Package filestore keeps a submission's journal and the record of the
// API's bulks in JSON files, each rewritten whole and atomically (a new
// file, synced, renamed over the old), readable by their owner only.
//
// [RecordCache] is the command line's record of bulks, next to its
// journal ([RecordPathFor]: journal.db → journal.record.json). [Journal]
// is the journal file the command line kept before its journal moved to a
// database (cmd/bulkdesk/internal/journalstore), which imports it.
package filestore
