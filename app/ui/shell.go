package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// logo is the console's mark, drawn inline so that it needs no request.
const logo = `<svg class="brand-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="7" fill="#ffbf47"/><rect x="7" y="8" width="18" height="4" rx="1.5" fill="#12355b"/><rect x="7" y="14" width="18" height="4" rx="1.5" fill="#12355b"/><rect x="7" y="20" width="11" height="4" rx="1.5" fill="#12355b"/></svg>`

// navigated is set after the first page is shown: later pages move the
// keyboard focus to their heading, so that screen readers announce them.
var navigated bool

// shell lays out every page: a skip link, the header with the navigation
// and the connectivity badge, the page's heading and content, and a live
// region that announces what the page reports.
type shell struct {
	app.Compo

	Iroute        string
	Iannouncement string
	Icontent      []app.UI

	online          bool
	updateAvailable bool
	// stopQueue stops watching the approval queue, whose count the
	// navigation shows.
	stopQueue func()
	// sandbox says the console's connection leads to the server's
	// sandbox: every page says so, so that nobody takes its bulks for
	// real ones.
	sandbox     bool
	unsubscribe func()
	// embedShell numbers the shell for the host page's messages, when
	// the console is embedded (embed-messages.go).
	embedShell int
}

func newShell() *shell { return &shell{online: true} }

// Route sets the path of the page shown (a path of routes).
func (s *shell) Route(path string) *shell {
	s.Iroute = path
	return s
}

// Announcement sets the text the live region reads to screen readers.
func (s *shell) Announcement(text string) *shell {
	s.Iannouncement = text
	return s
}

// Content sets the page's content, below its heading.
func (s *shell) Content(v ...app.UI) *shell {
	s.Icontent = app.FilterUIElems(v...)
	return s
}

func (s *shell) OnMount(ctx app.Context) {
	shown := [3]bool{s.online, s.updateAvailable, s.sandbox}
	s.online = network.Online()
	s.unsubscribe = network.Subscribe(func(online bool) {
		ctx.Dispatch(func(app.Context) { s.online = online })
	})
	s.updateAvailable = ctx.AppUpdateAvailable()
	s.sandbox = currentConnection(ctx).isSandbox(loadConfig().API)
	s.embedShell = embedMounted(ctx)
	if shown == [3]bool{s.online, s.updateAvailable, s.sandbox} {
		mountedUnchanged(ctx)
	}
	// The rest waits for the browser's turn, which keeps the page's
	// start in short tasks.
	afterYield(ctx, func(ctx app.Context) {
		if !s.Mounted() {
			return
		}
		network.Start()
		s.stopQueue = queue.watch(func() { ctx.Dispatch(func(app.Context) {}) })
		// Start the worker once the page is up, so that the first file
		// is validated without waiting for it to load.
		background()
	})
}

func (s *shell) OnDismount() {
	embedDismounted(s.embedShell)
	if s.unsubscribe != nil {
		s.unsubscribe()
	}
	if s.stopQueue != nil {
		s.stopQueue()
	}
}

func (s *shell) OnNav(ctx app.Context) {
	r := routeOf(s.Iroute)
	ctx.Page().SetTitle(t(r.title) + " · Bulkdesk")
	if navigated {
		ctx.Defer(func(app.Context) { focusByID("page-title") })
	}
	navigated = true
	queue.refresh(false)
	// The page takes input from here on; the import page did before,
	// from its early script (web/early.js), which marked it then.
	mark("page-started")
	if !marked("interactive") {
		mark("interactive")
	}
}

func (s *shell) OnAppUpdate(ctx app.Context) {
	s.updateAvailable = ctx.AppUpdateAvailable()
	s.sandbox = currentConnection(ctx).isSandbox(loadConfig().API)
}

func (s *shell) Render() app.UI {
	current := routeOf(s.Iroute)
	section := current.path
	if current.section != "" {
		section = current.section
	}
	nav := navRoutes()
	badge := "badge-online"
	if !s.online {
		badge = "badge-offline"
	}
	return app.Div().Class("shell").Body(
		app.A().Class("skip-link").Href("#main").Text(t("Skip to content")).OnClick(s.skipToContent),
		app.Header().Class("topbar").Body(
			app.A().Class("brand").Href(href("/")).Body(
				app.Raw(logo),
				app.Span().Text("Bulkdesk"),
			),
			// Embedded, the host page is the navigation.
			app.If(!isEmbedded(), func() app.UI { return s.renderNav(nav, section) }),
			app.Span().
				ID("connectivity").
				Class("badge").
				Class(badge).
				Role("status").
				Body(
					app.If(!s.online, func() app.UI {
						return app.Span().Title(t("The server does not answer: the console runs from its saved copy and still validates files.")).Text(t("Offline"))
					}),
				),
		),
		app.If(s.sandbox, func() app.UI {
			// A region of its own: every part of a page sits in a landmark.
			return app.Section().ID("sandbox-banner").Class("sandbox-banner").Aria("label", t("Sandbox")).Body(
				app.Strong().Text(t("Sandbox. ")),
				app.Text(t("This console sends bulks to a stand-in of the API that runs in the server's memory: nothing is paid, and its bulks are gone when the server stops. ")),
				app.A().Href(href("/settings")).Text(t("Connection settings")),
			)
		}),
		app.If(s.updateAvailable, func() app.UI {
			return app.Div().Class("update-banner").Role("status").Body(
				app.Span().Text(t("A new version of Bulkdesk is ready. ")),
				app.Button().Class("button").Type("button").Text(t("Reload to use it")).OnClick(func(ctx app.Context, _ app.Event) { ctx.Reload() }),
			)
		}),
		app.Main().ID("main").TabIndex(-1).Body(
			app.H1().ID("page-title").TabIndex(-1).Text(t(current.title)),
			app.Range(s.Icontent).Slice(func(i int) app.UI { return s.Icontent[i] }),
		),
		app.Div().ID("announcer").Class("visually-hidden").Role("status").Aria("live", "polite").Text(s.Iannouncement),
	)
}

// renderNav is the navigation bar, with the current section marked.
func (s *shell) renderNav(nav []route, section string) app.UI {
	return app.Nav().Class("nav").Aria("label", t("Main")).Body(
		app.Ul().Body(
			app.Range(nav).Slice(func(i int) app.UI {
				r := nav[i]
				a := app.A().Href(href(r.path)).Body(app.Text(t(r.nav)), navCount(r.path))
				if r.path == section {
					a = a.Aria("current", "page")
				}
				return app.Li().Body(a)
			}),
		),
	)
}

// skipToContent moves the keyboard focus to the main content. The event
// stops here: go-app's own link handling would treat "#main" as navigation.
func (s *shell) skipToContent(ctx app.Context, e app.Event) {
	e.PreventDefault()
	e.StopImmediatePropagation()
	focusByID("main")
}

// focusByID moves the keyboard focus to the element with the given id.
func focusByID(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus")
	}
}

// mountedUnchanged keeps go-app from rendering a component again after an
// OnMount that changed nothing it shows. go-app runs each OnMount as a
// dispatch, which renders the component and all its ancestors again: at
// the page's start, every component's did, and the whole page was
// rendered twice in the start's longest task.
func mountedUnchanged(ctx app.Context) { ctx.PreventUpdate() }
