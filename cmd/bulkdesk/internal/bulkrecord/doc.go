// Package bulkrecord is the server's side of the repeat check's record of
// the API's bulks: POST record/api and record/backoffice list the caller's
// bulks with the caller's credentials, fetch the operations of those the
// server has not seen, and answer with the record (recordhttp.Fetch
// reads it). The record is kept in a bbolt file under the server's state
// folder (File) or in the database several servers share
// (postgres.BulkRecord).
package bulkrecord
