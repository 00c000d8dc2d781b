package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/pa-toolkit/pa/locking"
)

// version is pa's version; a release build sets it with
// -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// Exit codes of pa (DESIGN.md, Decisions: Exit codes).
const (
	exitOK      = 0 // done
	exitUsage   = 1 // usage or bad input (kong's own parse errors too)
	exitProblem = 2 // lock error, refusal or problems found
)

// cli is pa's command line.
type cli struct {
	globals

	Version  kong.VersionFlag `help:"Print pa's version and exit."`
	Dispatch struct {
		Open   openCmd   `cmd:"" help:"Record a new dispatch of an agent in its spawn-log and put it on its board."`
		List   listCmd   `cmd:"" help:"List the dispatches in the spawn-logs."`
		Unlock unlockCmd `cmd:"" help:"Remove a spawn-log lock, after printing its holder."`
	} `cmd:"" help:"Dispatches: open, list, unlock."`
	Board struct {
		Check checkCmd `cmd:"" help:"Report a lock held past the stale window and dispatches not on the board (read-only)."`
	} `cmd:"" help:"The agents' boards: check."`
}

// globals are the flags every command takes.
type globals struct {
	Home string `help:"The estate's folder (created if missing). Default: ~/.pa." env:"PA_HOME" placeholder:"DIR"`
}

const description = `pa records the dispatches of agents in an estate: agents/<agent>/spawn-log.json,
written under a fail-safe lock, and agents/<agent>/board/board.json.

Exit codes: 0 done; 1 usage or bad input; 2 lock error, refusal or problems found.`

// exitError is an error that carries pa's exit code; its message is printed
// as one line on stderr (none when it is empty).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// fail returns an exitError whose message is printed after "pa: ".
func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// kongExit is what kong's exit hook panics with, so that --help and
// --version end run instead of the process.
type kongExit int

// run parses args and runs the command; it returns the exit code. It
// prints results on stdout and errors as one line each on stderr, prefixed
// "pa: ", and never a stack trace.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("pa"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Vars{"version": "pa " + version},
		kong.Exit(func(code int) { panic(kongExit(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
	)
	if err != nil {
		fmt.Fprintf(stderr, "pa: %s\n", oneLine(err.Error()))
		return exitUsage
	}
	defer func() {
		if r := recover(); r != nil {
			k, ok := r.(kongExit)
			if !ok {
				panic(r)
			}
			code = int(k)
			if code != exitOK {
				code = exitUsage
			}
		}
	}()
	kctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintf(stderr, "pa: %s (see pa --help)\n", oneLine(err.Error()))
		return exitUsage
	}
	kctx.BindTo(ctx, (*context.Context)(nil))
	err = kctx.Run(&c.globals, &output{stdout: stdout, stderr: stderr})
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stderr, "pa: %s\n", oneLine(ee.msg))
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "pa: %s\n", oneLine(locking.DisplayValue(err.Error())))
	return exitUsage
}

// output is where commands print.
type output struct {
	stdout, stderr io.Writer
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}
