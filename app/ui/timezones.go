package ui

import (
	"slices"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The time zone a file's dates are in is never guessed (see
// ingest.Settings.TimeZone): the operator chooses it in Settings, kept in
// this browser, or for one file while it is read. The page does not
// carry the zone database: the browser names the zones it knows, and the
// worker, which has the database, reads the dates.

// timeZoneKey is the localStorage key of the time zone chosen in
// Settings. It holds no secret, so it may outlive the tab, as the
// language does.
const timeZoneKey = "bulkdesk-time-zone"

// storedTimeZone returns the time zone chosen in Settings, "" for none.
func storedTimeZone() string {
	if !app.IsClient {
		return ""
	}
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return ""
	}
	if v := ls.Call("getItem", timeZoneKey); v.Truthy() {
		return v.String()
	}
	return ""
}

// rememberTimeZone keeps the time zone chosen in Settings; "" forgets it.
func rememberTimeZone(zone string) {
	ls := app.Window().Get("localStorage")
	if !ls.Truthy() {
		return
	}
	if zone == "" {
		ls.Call("removeItem", timeZoneKey)
	} else {
		ls.Call("setItem", timeZoneKey, zone)
	}
}

// commonZones are offered when the browser cannot list its zones.
var commonZones = []string{"UTC", "Europe/Amsterdam", "Europe/Berlin", "Europe/Brussels", "Europe/Dublin", "Europe/Lisbon", "Europe/London",
	"Europe/Luxembourg", "Europe/Madrid", "Europe/Paris", "Europe/Rome", "Europe/Vienna", "Europe/Zurich", "America/New_York", "Asia/Singapore"}

// browserZones are the browser's own time zone and every IANA zone it
// knows, UTC among them, read once.
var browserZones = sync.OnceValues(func() (string, []string) {
	if !app.IsClient {
		return "", commonZones
	}
	intl := app.Window().Get("Intl")
	if !intl.Truthy() {
		return "", commonZones
	}
	own := ""
	if o := intl.Get("DateTimeFormat").New().Call("resolvedOptions").Get("timeZone"); o.Truthy() {
		own = o.String()
	}
	if !intl.Get("supportedValuesOf").Truthy() {
		return own, commonZones
	}
	list := intl.Call("supportedValuesOf", "timeZone")
	all := make([]string, 0, list.Length()+1)
	for i := range list.Length() {
		all = append(all, list.Index(i).String())
	}
	if !slices.Contains(all, "UTC") {
		all = append([]string{"UTC"}, all...)
	}
	return own, all
})

// noZone is the value of the menus' "not chosen": go-app writes no value
// attribute for "", and the option's value would then be its label.
const noZone = "none"

// chosenZone is the zone a menu of zoneSelect names, "" for none.
func chosenZone(ctx app.Context) string {
	if v := ctx.JSSrc().Get("value").String(); v != noZone {
		return v
	}
	return ""
}

// zoneSelect is a menu of time zones: none (noZone, with the label none)
// first, then the browser's own zone, then every zone, current selected.
// A current zone the browser does not list (one a mapping file gives)
// is offered too.
func zoneSelect(id, current, none string, onChange app.EventHandler) app.HTMLSelect {
	own, all := browserZones()
	if current != "" && current != own && !slices.Contains(all, current) {
		all = append([]string{current}, all...)
	}
	return app.Select().ID(id).Class("select").OnChange(onChange).Body(
		option(noZone, none, current == ""),
		app.If(own != "", func() app.UI {
			return app.OptGroup().Label(t("This computer's time zone")).Body(option(own, own, current == own))
		}),
		app.OptGroup().Label(t("All time zones")).Body(app.Range(all).Slice(func(i int) app.UI {
			return option(all[i], all[i], all[i] == current && current != own)
		})),
	)
}

// renderSchedule lists when the elements' timestamps fall, in words
// (worker.Summary.Schedule). It stays in place, empty, when there are
// none: go-app matches children by position.
func renderSchedule(id string, lines []string) app.UI {
	list := app.Ul().ID(id).Class("reading", "schedule")
	if len(lines) == 0 {
		return list
	}
	return list.Aria("label", t("When the elements are scheduled")).Body(app.Range(lines).Slice(func(i int) app.UI {
		return app.Li().Text(lines[i])
	}))
}
