package server

import "net/http"

// embedScriptName is the script a portal's page loads to show the console
// in a frame (web/embed.js; cmd/bulkdesk/EMBEDDING.md).
const embedScriptName = "embed.js"

// embedScript serves web/embed.js at <prefix>embed.js: the script takes
// the console's address from its own, everything before "embed.js", so it
// must sit at the prefix rather than under /web/. It is the plain-named
// asset, served as the asset handler serves it: revalidated at every use
// (no-cache) against its ETag, so that a portal picks up a new version at
// once, and compressed as the browser accepts. A bundle without it
// answers 404.
//
// It stays behind the sign-in like every other asset: the portal's page
// loads it with the operator's sign-on, which the frame it opens needs
// anyway, and a script served to anyone would tell an outsider that a
// console is there.
func embedScript(a *assets) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/web/" + embedScriptName
		r2.URL.RawPath = ""
		a.ServeHTTP(w, r2)
	})
}
