// Package memstore keeps a submission's journal and the record of the
// API's bulks in memory: for tests, for a console that keeps no journal
// across reloads, and for a check that has no file or database to keep
// its record in. What it keeps is gone with the process.
//
// [Journal] is a [submission.Journal]; [RecordCache] is a
// [submission.RecordCache].
package memstore
