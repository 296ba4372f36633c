package apijobs

import (
	"context"
	"errors"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/apifailure"
	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/wire"
)

// client returns the API client a connection describes, or the failure
// that stops it before any call: a missing URL or credential is said here
// rather than as the API's 401.
func (s *Server) client(c wire.Connection) (*bulkapi.Client, *wire.APIFailure) {
	cl, err := bulkapi.New(bulkapi.Config{BaseURL: c.APIURL, BackOfficeURL: c.BackOfficeURL, APIKey: c.APIKey, Token: c.Token, Transport: s.Transport})
	if err != nil {
		return nil, setupFailure(s.said(err))
	}
	if c.NeedsAPIKey() {
		return nil, credentialsMissing(lang.Mark("No api-key is set: enter it in Connection settings."))
	}
	if !c.BackOffice {
		if c.Token == "" {
			return nil, credentialsMissing(lang.Mark("No bearer token is set: enter it in Connection settings."))
		}
		return cl, nil
	}
	if cl, err = cl.BackOffice(); err != nil {
		return nil, setupFailure(s.words.tag().F("%s: set it in Connection settings.", s.Reason(err)))
	}
	if c.BackOfficeToken == "" {
		return nil, credentialsMissing(lang.Mark("No back-office token: obtain one for an identity in Connection settings."))
	}
	return cl.WithToken(c.BackOfficeToken), nil
}

// said is err as a sentence the operator reads, in the page's language:
// said when it can be, and otherwise a reference under which err is
// written to the log (runner.Server.Reason).
func (s *Server) said(err error) string {
	return wire.Sentence(s.Say(s.Reason(err)))
}

// why is what a sentence says of err, an argument of lang's F: what the
// API's refusal means (apifailure), said in the language, or the reason
// runner.Server.Reason gives.
func (s *Server) why(err error) any {
	if ae, ok := bulkapi.AsError(err); ok {
		if words := apifailure.Words(string(ae.Class())); words != "" {
			return lang.Word(words)
		}
	}
	return s.Reason(err)
}

func setupFailure(msg string) *wire.APIFailure {
	return &wire.APIFailure{Class: string(bulkapi.ClassOther), Summary: msg, Chunk: wire.NoChunk}
}

func credentialsMissing(msg string) *wire.APIFailure {
	return &wire.APIFailure{Class: string(bulkapi.ClassCredentials), Summary: msg, Chunk: wire.NoChunk}
}

// A placer locates element k of a request in the operator's file: its
// index there, and its sheet and row when it came from a spreadsheet.
type placer func(k int) (element int, sheet string, row int)

// failureOf describes an error of the API client for the page; place, when
// not nil, locates the elements a 400's syntax errors name. An error that
// is neither the API's nor the network's is said as s.said says it.
func (s *Server) failureOf(err error, place placer) *wire.APIFailure {
	var te *bulkapi.TransportError
	if ae, ok := bulkapi.AsError(err); ok {
		f := &wire.APIFailure{
			Class: string(ae.Class()), Status: ae.Status, Call: ae.Method + " " + ae.Path,
			RequestRef: ae.RequestRef, Code: ae.Code, Message: ae.Message, Summary: wire.Sentence(ae.Summary()),
			RetryAfter: int(ae.RateLimitReset.Seconds()), Chunk: wire.NoChunk,
		}
		for _, field := range ae.InvalidFields {
			ff := wire.FieldFailure{Element: wire.RequestLevel, Field: field.Field(), Error: field.Error, Params: field.Params, Text: field.String()}
			if k, ok := field.Element(); ok {
				ff.Element = k
				if place != nil {
					ff.Element, ff.Sheet, ff.Row = place(k)
				}
			}
			f.Fields = append(f.Fields, ff)
		}
		return f
	}
	if errors.As(err, &te) {
		return &wire.APIFailure{
			Class: wire.ClassNetwork, Call: te.Method + " " + te.Path, Chunk: wire.NoChunk, Detail: te.Err.Error(),
			Summary: fmt.Sprintf("No answer from the API (%v). Whether it acted on the request is unknown; sending again with the same idempotency-ref is safe.", te.Err),
		}
	}
	return &wire.APIFailure{Class: string(bulkapi.ClassOther), Summary: s.said(err), Chunk: wire.NoChunk}
}

// canceled reports whether err is the job's cancellation.
func canceled(ctx context.Context, err error) bool {
	return ctx.Err() != nil && errors.Is(err, ctx.Err())
}
