package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// startEnvKey holds, in a script's values, the environment Setup made,
// which start passes on (a script's own env lines change its values).
type startEnvKey struct{}

// startWait bounds how long start waits for a server to say where it
// listens, and interrupt for it to end once interrupted (serve gives requests
// under way 10 s).
const startWait = 30 * time.Second

// bgServer is a command start left running in the background.
type bgServer struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    strings.Builder // stdout, as it comes
	errOut strings.Builder // stderr
	done   chan error      // the command's end
	ended  bool
}

// serversKey holds, in a script's values, the servers start started, by
// the name of their variable.
type serversKey struct{}

func servers(ts *testscript.TestScript) map[string]*bgServer {
	m, _ := ts.Value(serversKey{}).(map[string]*bgServer)
	return m
}

// cmdStart runs "start VAR PATTERN COMMAND [ARGS...]": it starts COMMAND
// in the background, waits until a line of its standard output matches
// PATTERN and sets $VAR to the pattern's first group (the URL the server
// says it listens on). The server is interrupted when the script ends,
// or by "interrupt VAR".
func cmdStart(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! start")
	}
	if len(args) < 3 {
		ts.Fatalf("usage: start VAR PATTERN COMMAND [ARGS...]")
	}
	name, pattern := args[0], regexp.MustCompile(args[1])
	if pattern.NumSubexp() < 1 {
		ts.Fatalf("start: the pattern %q has no group to set $%s from", args[1], name)
	}
	path, err := exec.LookPath(args[2])
	ts.Check(err)
	s := &bgServer{cmd: exec.Command(path, args[3:]...), done: make(chan error, 1)}
	s.cmd.Dir = ts.MkAbs(".")
	env, _ := ts.Value(startEnvKey{}).([]string)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		s.cmd.Env = append(s.cmd.Env, k+"="+ts.Getenv(k))
	}
	stdout, err := s.cmd.StdoutPipe()
	ts.Check(err)
	s.cmd.Stderr = lockedWriter{&s.mu, &s.errOut}
	ts.Check(s.cmd.Start())
	servers(ts)[name] = s
	ts.Defer(func() { s.stop() })

	found := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		sent := false
		for {
			line, err := r.ReadString('\n')
			s.mu.Lock()
			s.out.WriteString(line)
			s.mu.Unlock()
			if m := pattern.FindStringSubmatch(line); m != nil && !sent {
				found <- m[1]
				sent = true
			}
			if err != nil {
				break
			}
		}
		s.done <- s.cmd.Wait()
	}()
	select {
	case url := <-found:
		ts.Setenv(name, url)
	case err := <-s.done:
		s.ended = true
		ts.Fatalf("start: %s ended (%v) before it said where it listens:\n%s%s", args[2], err, s.stdout(), s.stderr())
	case <-time.After(startWait):
		ts.Fatalf("start: %s did not say where it listens within %s:\n%s%s", args[2], startWait, s.stdout(), s.stderr())
	}
}

// cmdInterrupt runs "interrupt VAR": it interrupts the server start left in $VAR,
// as Ctrl-C does, waits for it to end, and makes its output the
// script's stdout and stderr. It fails if the server ends with an error,
// or, negated, if it does not.
func cmdInterrupt(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: interrupt VAR")
	}
	s := servers(ts)[args[0]]
	if s == nil {
		ts.Fatalf("interrupt: no server was started as %s", args[0])
	}
	err := s.stop()
	fmt.Fprint(ts.Stdout(), s.stdout())
	fmt.Fprint(ts.Stderr(), s.stderr())
	switch {
	case err != nil && !neg:
		ts.Fatalf("interrupt %s: %v", args[0], err)
	case err == nil && neg:
		ts.Fatalf("interrupt %s: it ended without an error", args[0])
	}
}

// stop interrupts s once and waits for its end, killing it past startWait.
func (s *bgServer) stop() error {
	if s.ended {
		return nil
	}
	s.ended = true
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-s.done:
		return err
	case <-time.After(startWait):
		_ = s.cmd.Process.Kill()
		<-s.done
		return errors.New("it did not end when interrupted")
	}
}

func (s *bgServer) stdout() string { s.mu.Lock(); defer s.mu.Unlock(); return s.out.String() }
func (s *bgServer) stderr() string { s.mu.Lock(); defer s.mu.Unlock(); return s.errOut.String() }

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// cmdHTTP runs "http METHOD URL [BODYFILE]": it makes the request, with
// the file's content as its body, and writes the answer's body to stdout
// and its status line to stderr. It fails on a status of 400 or more, or,
// negated, below 400 (negated, no answer at all passes too: a server
// that has stopped).
func cmdHTTP(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: http METHOD URL [BODYFILE]")
	}
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(ts.ReadFile(args[2]))
	}
	req, err := http.NewRequest(args[0], args[1], body)
	ts.Check(err)
	client := &http.Client{Timeout: startWait}
	resp, err := client.Do(req)
	if err != nil && neg {
		fmt.Fprintf(ts.Stderr(), "no answer: %v\n", err)
		return
	}
	ts.Check(err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	ts.Check(err)
	ts.Stdout().Write(data)
	fmt.Fprintf(ts.Stderr(), "HTTP %s\n", resp.Status)
	if failed := resp.StatusCode >= 400; failed != neg {
		ts.Fatalf("http %s %s: %s", args[0], args[1], resp.Status)
	}
}
