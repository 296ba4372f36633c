// Package recordhttp carries the record of the API's bulks, which the
// repeat check reads, between a server and the console over HTTP.
//
// A server that proxies the API and keeps a record of its bulks (bulkdesk
// serve with -store or -state-dir) runs submission.UpdateRecord for the
// console: POST <console>/record/api (or /record/backoffice), with the
// caller's api-key and bearer token, lists the bulks as the caller and
// answers with the record of those its listing shows, as JSON lines
// ([Line]). Its bulks' operations are fetched once for every browser and
// every server sharing the database, and an operator cannot write
// fingerprints that would hide a repeat from another. The caller names
// the bulks it holds already ([Request]): their fingerprints, which never
// change, are not sent again ([LeaveOutHeld]).
//
// [Fetch] is the console's side: it asks the server and keeps what it is
// sent in a submission.RecordCache. The server's side is
// cmd/bulkdesk/internal/bulkrecord.
package recordhttp
