package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/termsafe"
)

// Environment variables of the commands that call the API. Credentials
// come from the environment only, so that they stay out of shell history
// and process lists.
const (
	envAPIKey        = "BULKDESK_API_KEY"
	envToken         = "BULKDESK_TOKEN"
	envAPIURL        = "BULKDESK_API_URL"
	envBackOfficeURL = "BULKDESK_BACKOFFICE_URL"
)

// apiFlags are the flags of the commands that call the API.
type apiFlags struct {
	apiURL, backOfficeURL string
	backOffice            bool
	identity              string
	timeout               time.Duration
}

// defaultCallTimeout bounds each API call of the command line: long enough
// for a 10,000-element submission on a slow link, short enough that a
// silent API does not hold a terminal for ever.
const defaultCallTimeout = 60 * time.Second

func (a *apiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.apiURL, "api-url", os.Getenv(envAPIURL), "standard API base URL, such as http://127.0.0.1:8081/multi (default $"+envAPIURL+")")
	fs.StringVar(&a.backOfficeURL, "backoffice-url", os.Getenv(envBackOfficeURL), "back-office API base URL (default $"+envBackOfficeURL+", else API URL + /backoffice)")
	fs.BoolVar(&a.backOffice, "backoffice", false, "use the back-office API")
	fs.StringVar(&a.identity, "identity", "", "back-office: act for this identity, TYPE:ID (CORPORATE:123), with a token from POST /access_token")
	fs.DurationVar(&a.timeout, "timeout", defaultCallTimeout, "the longest one API call may take, answer included; a submission retries a call that runs out with the same idempotency-ref")
}

// credentialsHelp explains where the credentials come from.
const credentialsHelp = "Credentials come from the environment: $" + envAPIKey + " (api-key) and $" + envToken + " (bearer token;\nin back-office mode with -identity, a token is obtained for the identity instead)."

// client returns the API client the flags describe.
func (a *apiFlags) client(ctx context.Context) (*bulkapi.Client, error) {
	if a.apiURL == "" {
		return nil, errors.New("no API URL: pass -api-url or set $" + envAPIURL)
	}
	bo := a.backOfficeURL
	if bo == "" {
		bo = a.apiURL + "/backoffice"
	}
	c, err := bulkapi.New(bulkapi.Config{BaseURL: a.apiURL, BackOfficeURL: bo, APIKey: os.Getenv(envAPIKey), Token: os.Getenv(envToken), Timeout: a.timeout})
	if err != nil {
		return nil, err
	}
	if os.Getenv(envAPIKey) == "" {
		return nil, errors.New("no api-key: set $" + envAPIKey)
	}
	if !a.backOffice {
		if a.identity != "" {
			return nil, errors.New("-identity needs -backoffice")
		}
		if os.Getenv(envToken) == "" {
			return nil, errors.New("no token: set $" + envToken)
		}
		return c, nil
	}
	if c, err = c.BackOffice(); err != nil {
		return nil, err
	}
	if a.identity == "" {
		if os.Getenv(envToken) == "" {
			return nil, errors.New("back-office mode needs -identity TYPE:ID, or a token for it in $" + envToken)
		}
		return c, nil
	}
	id, err := bulkapi.ParseIdentity(a.identity)
	if err != nil {
		return nil, err
	}
	tok, err := c.AccessToken(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("obtaining a token for %s: %w", id, err)
	}
	return c.WithToken(tok.Token), nil
}

// interrupted returns a context that SIGINT and SIGTERM cancel; tests
// replace it.
var interrupted = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// printAPIError writes an API error with every syntax error on its own line.
func printAPIError(w io.Writer, cmd string, err error) {
	termsafe.Fprintf(w, "bulkdesk %s: %v\n", cmd, err)
	if e, ok := bulkapi.AsError(err); ok {
		for _, f := range e.InvalidFields {
			if i, ok := f.Element(); ok {
				termsafe.Fprintf(w, "  element %d: %s\n", i, f.String())
			} else {
				termsafe.Fprintf(w, "  %s\n", f.String())
			}
		}
	}
}
