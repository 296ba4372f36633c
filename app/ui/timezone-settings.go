package ui

import (
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
