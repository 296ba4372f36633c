// Package apikey reads the API's api-key that "bulkdesk serve" keeps on
// the server (-api-key-file, -backoffice-api-key-file), so that operators
// never hold it: the proxy adds it to every call it forwards.
//
// The file is read once, at start. It must be a regular file that only
// its owner may read or write (mode 0600): a key others on the machine
// can read is no longer the programme's alone. Surrounding white space,
// the final newline among it, is not part of the key. Every refusal names
// the file and what to do, never what the file holds.
//
// A Key prints, logs and formats as "[redacted]"; Value alone gives the
// key, for the api-key header.
package apikey
