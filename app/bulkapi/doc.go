// Package bulkapi is the HTTP client of the bulk part of the API: it submits
// bulk requests, reads bulk processes and their operations, and runs them
// (execute, pause, resume, cancel), on the standard and the back-office API.
//
// The same code runs natively (the command line, tests) and in the browser
// under WebAssembly, where net/http runs on fetch. The transport is
// injectable (Config.Transport) so that tests, and the console under Node,
// can serve requests in-process with [HandlerTransport].
//
// # Credentials
//
// A [Client] holds an api-key and a bearer token. They go into request
// headers and nowhere else: errors, String and GoString never show them.
// Back-office work first obtains a token for a named identity with
// [Client.AccessToken] and continues with [Client.WithToken].
//
// # Errors
//
// A refusal from the API is an [*Error] carrying the status, the request-ref
// to quote to support, the message, every syntax error with the element it
// names, the errorCode and the rate-limit headers. A request that never got
// an answer is a [*TransportError]. [Retryable] says which of them may be
// sent again unchanged (with the same idempotency-ref).
//
// # Lifecycle
//
// A bulk process moves SUBMITTED → RUNNING ⇄ PAUSED → COMPLETED,
// PARTIALLY_COMPLETED or FAILED, and can be CANCELLED before it ends.
// [Status.Actions] lists what an operator may do in each state.
package bulkapi
