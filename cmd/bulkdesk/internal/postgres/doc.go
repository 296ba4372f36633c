// Package postgres keeps in PostgreSQL what several "bulkdesk serve"
// behind one address must share: the four-eyes record of who submitted
// and who executed each bulk, and the calls on their way to the API
// (approvals.Records). One server alone keeps it in a file under
// -state-dir; -store postgres://… puts it here.
//
// Open connects, waits for the database with backoff, and brings its
// tables to the version this binary knows (migrate.go: numbered steps,
// each applied once, under an advisory lock, so that servers starting
// together do not race). The connection string's password is never
// written in a message or a log.
package postgres
