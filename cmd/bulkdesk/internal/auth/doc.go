// Package auth decides who may use the console listener of "bulkdesk
// serve": it names the person behind each request and turns away requests
// addressed to a host the console is not served as.
//
// Two ways of naming the person:
//
//   - [Header] trusts a header such as X-Forwarded-User, set by a portal
//     with single sign-on (oauth2-proxy and the like) in front of the
//     console, but only on connections from the portal's addresses: from
//     anywhere else the header could be written by anyone. A header that
//     is not one person's name ("mallory, alice") is refused.
//   - [Basic] checks HTTP Basic credentials against an htpasswd file of
//     bcrypt hashes ([LoadHtpasswd]), then keeps the person signed in with
//     a cookie, because the console's own API calls carry the API's
//     Authorization header and so cannot carry Basic credentials too.
//     Every check costs what the file's dearest hash costs, so time tells
//     no name from another, and failures slow the next attempts of their
//     name and their client address, then lock them out for a while.
//
// What either refuses is told to [Refusals]: the log and the metrics.
//
// Either way the handler behind it finds the name with [User]; a request
// without one never reaches it. [Hosts] answers 421 Misdirected Request to
// a Host header that is not the console's, which defeats DNS rebinding: a
// page on another site cannot make the browser talk to a console on the
// local network under the other site's name.
package auth
