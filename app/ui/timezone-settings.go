package ui

import (
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// timeZoneSection is the Settings section that chooses the time zone of
// the dates in the operator's files, kept in this browser: every file
// opened afterwards reads its dates in it.
func (p *settingsPage) timeZoneSection() app.UI {
	chosen := storedTimeZone()
	return app.Section().Class("settings-group").Aria("labelledby", "time-zone-title").Body(
		app.H2().ID("time-zone-title").Text(t("Dates and times")),
		app.Div().Class("field").Body(
			app.Label().For("time-zone").Text(t("Time zone of the dates in your files")),
			zoneSelect("time-zone", chosen, t("Not chosen: ask for each file"), p.timeZoneChosen).Aria("describedby", "time-zone-hint"),
			app.Span().ID("time-zone-hint").Class("hint").Text(t("A date alone, such as 15.12.2026, is 00:00 of that day in this zone; a date with a time, that time there. Nothing is guessed: without a zone, a file's dates wait for one in “Check how it is read”. The choice is kept in this browser.")),
		),
	)
}

// timeZoneChosen keeps the zone for the files opened from now on.
func (p *settingsPage) timeZoneChosen(ctx app.Context, e app.Event) {
	zone := chosenZone(ctx)
	rememberTimeZone(zone)
	if zone == "" {
		p.announcement = t("No time zone is chosen: each file with dates asks for one.")
	} else {
		p.announcement = tf("The dates of the files you open from now on are read in %s.", zone)
	}
}

// renderTimeZone is the choice of the time zone of the open file's
// dates, in the settings of "Check how it is read" and in its question.
func (p *importPage) renderTimeZone(id string) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(t("Time zone of the dates")),
		zoneSelect(id, p.prep.Settings.TimeZone, t("Not chosen: the dates are errors"), p.timeZoneSelected).Aria("describedby", id+"-hint"),
		app.Span().ID(id+"-hint").Class("hint").Text(t("A date alone is 00:00 of that day in this zone. Settings chooses the zone for every file.")),
	)
}

// timeZoneSelected reads the file's dates in the zone chosen; the focus
// goes to the settings' menu, which stays when the question goes.
func (p *importPage) timeZoneSelected(ctx app.Context, e app.Event) {
	if p.prep == nil {
		return
	}
	next := p.prep.Settings
	next.TimeZone = chosenZone(ctx)
	p.focusNext = "time-zone"
	p.prepare(ctx, wire.Prepare{Settings: &next, Chosen: []string{wire.SettingTimeZone}}, t("Reading with the new settings"))
}
