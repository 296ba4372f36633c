// Package bulkreview rebuilds a submitted bulk from the API's own record,
// so that a second operator can check it before it is executed: the
// "four eyes" review.
//
// [Fetch] reads the bulk and every one of its operations, rebuilds each
// element from its operation's requestPayload ([ElementOf]), validates
// it, and sums it as the review of a file sums it (app/review's summary:
// per currency and per source instrument, with app/money's totals). The
// [Review] also holds the SHA-256 of the elements' canonical body, which
// equals the SHA-256 of the chunk body app/submission sent when nothing
// changed on the way, and each element's fingerprint for the repeat check
// against other bulks ([Review.Repeats]).
//
// A [Receipt] is what the maker declares after submitting: the file, the
// chunks with their bulk ids and body hashes, and the control totals.
// [Compare] names every difference between a receipt and a review, and
// [Control.Compare] those between the totals a checker types and a review.
package bulkreview
