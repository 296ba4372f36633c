package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// strictKey is the localStorage key of the strict setting. It holds no
// secret, so it may outlive the tab, unlike the credentials.
const strictKey = "bulkdesk-strict"

// strictSetting reports whether the operator treats the API
// documentation's rules as errors.
func strictSetting() bool {
	if !app.IsClient {
		return false
	}
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return false
	}
	v := ls.Call("getItem", strictKey)
	return v.Truthy() && v.String() == "on"
}

// setStrictSetting remembers the strict setting.
func setStrictSetting(on bool) {
	if !app.IsClient {
		return
	}
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return
	}
	if on {
		ls.Call("setItem", strictKey, "on")
	} else {
		ls.Call("removeItem", strictKey)
	}
}
