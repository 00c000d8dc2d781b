package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/policy"
	"github.com/pa-toolkit/pa/vfs"
)

// The one JSON object on stderr of a failed `pa dispatch open --json`
// (docs/cli.md, "pa dispatch open --json errors"; issue 17, part 1): the
// stable code of the error, the line pa prints without --json, the lock,
// its holder and the time waited. The exit code is the one without --json.

// pa's own codes, for the errors of open that carry no code of
// locking/policy (docs/cli.md lists them with policy's). A code is never
// renamed.
const (
	// codeUsage: a usage error or bad input (exit 1): a flag, the agent's
	// name, the title, a spawn-log or board that does not parse.
	codeUsage policy.Code = "usage"
	// codeInterrupted: Ctrl-C or SIGTERM ended the wait (exit 2).
	codeInterrupted policy.Code = "interrupted"
	// codeNotOnBoard: the dispatch is recorded in the spawn-log but its
	// board write failed (exit 2; the object's dispatch_id names it).
	codeNotOnBoard policy.Code = "not_on_board"
	// codeLockIO: a file operation of the lock failed, or any other
	// error of exit 2 (a rename or remove refused because the file is
	// another user's among them).
	codeLockIO policy.Code = "lock_io_error"
)

// openJSONError is the object. Lock is the agent's lock as pa names it
// (agents/<agent>/spawn-log.json.lock, whole), "" when no valid agent's
// name is known (a bad name, a parse error before any --agent). Holder is null when no holder is known
// (the lock free, or not read); WaitedMS is how long open waited for the
// lock, in milliseconds (0 when it never reached the lock).
type openJSONError struct {
	ErrorCode  policy.Code      `json:"error_code"`
	Message    string           `json:"message"`
	Lock       string           `json:"lock"`
	Holder     *dispatch.Holder `json:"holder"`
	WaitedMS   int64            `json:"waited_ms"`
	DispatchID int              `json:"dispatch_id,omitempty"`
}

// openFailure is what Run knows of a failed open besides its line: the
// error of dispatch.Open, the time it took, the holder as the error
// carries it or as read once the open failed, and the dispatch's id when
// it landed.
type openFailure struct {
	cause      error
	waited     time.Duration
	holder     *locking.Holder
	dispatchID int
}

// observe fills f from the error of dispatch.Open, which took took: the
// holder the error carries (a timeout, a refusal, a busy claim), else the
// agent's lock as read now (none when it is free or cannot be read).
func (f *openFailure) observe(fsys vfs.FS, agent string, opts locking.Options, err error, took time.Duration, id int) {
	f.cause, f.waited, f.dispatchID = err, took, id
	var te *locking.TimeoutError
	var re *locking.RefusedError
	var be *locking.BusyError
	switch {
	case errors.As(err, &te):
		f.holder, f.waited = &te.Holder, te.Waited
	case errors.As(err, &re):
		f.holder = &re.Holder
	case errors.As(err, &be):
		f.holder = &be.Holder
	default:
		if h, err := locking.Inspect(fsys, estate.SpawnLogPath(agent), opts); err == nil {
			f.holder = &h
		}
	}
}

// codeOf is the error_code of err (pa's line, an *exitError) for an open
// that failed with f.cause: not_on_board for a dispatch recorded but not
// on the board, policy's code where the cause has one, else pa's own by
// the exit code and the cause.
func (f openFailure) codeOf(err error) policy.Code {
	var ee *exitError
	code := exitUsage
	if errors.As(err, &ee) {
		code = ee.code
	}
	var nb *dispatch.NotOnBoardError
	// not_on_board comes before the lock's own code: the dispatch is in
	// the spawn-log (a lock lost after the commit, before the board write,
	// would otherwise say lock_lost, which means nothing was committed).
	switch c, ok := policy.CodeOf(f.cause); {
	case code == exitUsage:
		return codeUsage
	case errors.As(f.cause, &nb):
		return codeNotOnBoard
	case ok:
		return c
	case errors.Is(f.cause, context.Canceled):
		return codeInterrupted
	}
	return codeLockIO
}

// writeJSON prints err (pa's line, an *exitError) as the object on w and
// returns the exit error with no line, so that run prints nothing more.
func (f openFailure) writeJSON(w io.Writer, agent string, err error) error {
	code := exitUsage
	var ee *exitError
	msg := err.Error()
	if errors.As(err, &ee) {
		code = ee.code
	}
	obj := openJSONError{ErrorCode: f.codeOf(err), Message: oneLine(msg), WaitedMS: f.waited.Milliseconds(), DispatchID: f.dispatchID}
	if agent != "" && checkAgent(agent) == nil {
		obj.Lock = estate.SpawnLogPath(agent) + ".lock"
	}
	if h := f.holder; h != nil && h.Mode == 0 {
		// A regular lock file (a directory under the lock name has no
		// holder).
		obj.Holder = dispatch.HolderOf(*h)
	}
	fmt.Fprintf(w, "%s\n", marshalJSON(obj))
	return &exitError{code: code}
}

// openJSONParse reports whether a parse error of kong's (args the raw
// args) is one of `pa dispatch open --json`, whose error is then the
// object too: the command kong got to is dispatch open, and --json is in
// args before any "--", as a flag (not as the value of a flag that takes
// one: `--wait --json` is a --wait with no value). agent is the --agent
// given in args (the last one), else PA_AGENT, for the object's lock.
func openJSONParse(err error, args []string) (agent string, ok bool) {
	var pe *kong.ParseError
	if !errors.As(err, &pe) || pe.Context == nil || pe.Context.Selected() == nil || pe.Context.Selected().Path() != "dispatch open" {
		return "", false
	}
	takesValue := map[string]bool{"--policy": true}
	for _, f := range valueFlags {
		takesValue["--"+f] = true
	}
	agent = os.Getenv("PA_AGENT")
	json := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return agent, json
		case a == "--agent" && i+1 < len(args):
			agent = args[i+1]
			i++
		case strings.HasPrefix(a, "--agent="):
			agent = strings.TrimPrefix(a, "--agent=")
		case takesValue[a]:
			i++ // its value, whatever it looks like
		case a == "--json", a == "--json=true", a == "--json=1":
			json = true
		case strings.HasPrefix(a, "--json="):
			json = false
		}
	}
	return agent, json
}
