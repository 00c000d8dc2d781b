package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// version, when a release build sets it with -ldflags "-X
// main.version=...", is pa's version; empty, the build info's is used
// (versionString).
var version = ""

// Exit codes of pa, as docs/cli.md lists them.
const (
	exitOK      = 0 // done
	exitUsage   = 1 // usage or bad input (kong's own parse errors too)
	exitProblem = 2 // lock error, refusal or problems found
)

// cli is pa's command line.
type cli struct {
	globals

	Version  kong.VersionFlag `help:"Print pa's version and exit."`
	Dispatch dispatchCmd      `cmd:"" help:"Dispatches: open, list, unlock, incidents."`
	Board    boardCmd         `cmd:"" help:"The agents' boards: check, repair."`
	FS       fsCmd            `cmd:"" name:"fs" help:"The volume under an estate: probe."`
	Help     helpCmd          `cmd:"" help:"Show help for pa or for one of its commands (pa help dispatch open)."`
	Complete completionCmd    `cmd:"" name:"completion" help:"Print the code that makes bash, zsh or fish complete pa's commands."`
	Vers     versionCmd       `cmd:"" name:"version" help:"Print pa's version."`
}

// dispatchCmd is `pa dispatch`.
type dispatchCmd struct {
	Open      openCmd      `cmd:"" help:"Record a new dispatch of an agent in its spawn-log and put it on its board."`
	List      listCmd      `cmd:"" help:"List the dispatches in the spawn-logs."`
	Unlock    unlockCmd    `cmd:"" help:"Remove a spawn-log lock, after printing its holder."`
	Incidents incidentsCmd `cmd:"" help:"List the spawn-log locks' incidents: timeouts, breaks of dead holders, forced unlocks."`
}

// Help is the group's long help.
func (dispatchCmd) Help() string {
	return `A dispatch is one record in agents/<agent>/spawn-log.json: an id, the agent,
a title, when it was opened and by which process. open appends one under the
spawn-log lock (and puts it on the agent's board), list reads them, unlock
clears a lock that a writer left or that blocks.

Exit codes: each command's own (see pa dispatch open --help, ...); pa
dispatch without a command is a usage error (exit 1).

Example:
  pa dispatch open --agent demo --title "first dispatch"`
}

// boardCmd is `pa board`.
type boardCmd struct {
	Check  checkCmd  `cmd:"" help:"Report a lock held past the stale window and dispatches not on the board (read-only)."`
	Repair repairCmd `cmd:"" help:"Put on the board every dispatch of the spawn-log that is missing from it, under the lock."`
}

// Help is the group's long help.
func (boardCmd) Help() string {
	return `Each agent's board, agents/<agent>/board/board.json, holds one item per
dispatch, written by pa dispatch open while the spawn-log lock is held. check
reads the boards, spawn-logs and locks and reports what needs an operator;
repair puts on a board, under the lock, the dispatches check reports as not
on it.

Exit codes: each command's own (see pa board check --help, pa board repair
--help); pa board without a command is a usage error (exit 1).

Example:
  pa board check --agent demo
  pa board repair --agent demo`
}

// helpCmd is `pa help [COMMAND...]`.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command to show help for (e.g. dispatch open)."`
}

// Help is the command's long help.
func (h *helpCmd) Help() string {
	return `Prints the help of pa, or of the command named, as --help does.

Exit codes: 0 printed; 1 no such command.

Example:
  pa help dispatch unlock`
}

// Run prints the help of pa, or of the command named.
func (h *helpCmd) Run(kctx *kong.Context) error {
	t, err := kong.Trace(kctx.Kong, h.Command)
	if err == nil {
		err = t.Error
	}
	if err != nil {
		return fail(exitUsage, "help: no command %s; the commands are: %s",
			strconv.Quote(strings.Join(h.Command, " ")), strings.Join(leafCommands(kctx.Model.Node), ", "))
	}
	return t.PrintUsage(false)
}

// versionCmd is `pa version`.
type versionCmd struct{}

// Help is the command's long help.
func (versionCmd) Help() string {
	return `Prints pa's version on stdout, as pa --version does.

Exit codes: 0 printed.

Example:
  pa version`
}

// Run prints the version, as --version does.
func (versionCmd) Run(out *output) error {
	_, err := fmt.Fprintf(out.stdout, "pa %s\n", versionString())
	return err
}

// globals are the flags every command takes.
type globals struct {
	Home string `help:"The estate's folder (default: ~/.pa). Only dispatch open creates it; the other commands need it to exist." env:"PA_HOME" placeholder:"DIR" predictor:"dir" type:"needed"`

	// home is Home made absolute once the estate is opened ("" for the
	// default estate): every command a message names carries it (see
	// program). dir is the estate's folder: home, or ~/.pa.
	home, dir string
}

const description = `pa records the dispatches of agents in an estate: agents/<agent>/spawn-log.json,
written under a fail-safe lock, and agents/<agent>/board/board.json.

Exit codes: 0 done; 1 usage or bad input; 2 lock error, refusal or problems found;
3 dispatch open --policy single-flight found the lock held (nothing recorded).

Example:
  pa dispatch open --agent demo --title "first dispatch"`

// exitError is an error that carries pa's exit code; its message is printed
// as one line on stderr (none when it is empty).
type exitError struct {
	code int
	msg  string
	// flag is the value flag (without "--") a usage error is about, one
	// given twice or empty (repeatedFlags, emptyFlags), "" for any other.
	flag string
}

func (e *exitError) Error() string { return e.msg }

// fail returns an exitError whose message is printed after "pa: ".
func fail(code int, format string, args ...any) error {
	return &exitError{code: code, msg: fmt.Sprintf(format, args...)}
}

// failFlag is fail's usage error (exit 1) about the value flag named flag
// (without "--"): its exitError carries the flag, for a caller to read.
func failFlag(flag, format string, args ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, args...), flag: flag}
}

// kongExit is what kong's exit hook panics with, so that --help and
// --version end run instead of the process.
type kongExit int

// run parses args and runs the command; it returns the exit code. It
// prints results on stdout and errors as one line each on stderr, prefixed
// "pa: ", and never a stack trace. With --hook-envelope anywhere in args,
// every error, kong's own parse errors included, goes into the one JSON
// envelope on stdout instead, and the exit code is 0.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	envelope := hookEnvelopeIn(args)
	report := func(err error) int {
		var ee *exitError
		code, msg := exitUsage, ""
		var pe *fs.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &ee):
			code, msg = ee.code, ee.msg
		case osfs.IsEscape(err) && errors.As(err, &pe):
			msg = escaped(pe.Path)
		case osfs.IsEscape(err) && errors.As(err, &le):
			msg = escaped(le.New)
		default:
			msg = termsafe.Value(err.Error())
		}
		if envelope {
			var lines []string
			if msg != "" {
				lines = []string{"pa: " + oneLine(msg)}
			}
			writeEnvelope(stdout, lines)
			return exitOK
		}
		if msg != "" {
			fmt.Fprintf(stderr, "pa: %s\n", oneLine(msg))
		}
		return code
	}
	var c cli
	parser, err := newParser(&c, stdout, stderr)
	if err != nil {
		return report(fail(exitUsage, "%s", err))
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
	registerCompletion(parser) // answers and ends run when the shell asks (COMP_LINE)
	kctx, err := parser.Parse(args)
	if err != nil {
		perr := parseError(err, envelope, stderr)
		if agent, ok := openJSONParse(err, args); ok && !envelope {
			// pa dispatch open --json: its usage error is its object too.
			perr = openFailure{}.writeJSON(stderr, agent, perr)
		}
		return report(perr)
	}
	usage := emptyFlags(kctx, args)
	if usage == nil {
		usage = repeatedFlags(args)
	}
	if usage == nil {
		usage = agentFromEnv(kctx, args)
	}
	if usage != nil {
		if kctx.Selected() != nil && kctx.Selected().Path() == "dispatch open" && c.Dispatch.Open.JSON && !envelope {
			// pa dispatch open --json: an empty or repeated flag is
			// its object too, as kong's own usage errors are. Its lock
			// is the agent's where that is valid (writeJSON) and given
			// once.
			agent := c.Dispatch.Open.Agent
			if ee, ok := usage.(*exitError); ok && ee.flag == "agent" { // given twice: which is meant?
				agent = ""
			}
			usage = openFailure{}.writeJSON(stderr, agent, usage)
		}
		return report(usage)
	}
	kctx.BindTo(ctx, (*context.Context)(nil))
	if err := kctx.Run(&c.globals, &output{stdout: stdout, stderr: stderr}); err != nil {
		return report(err)
	}
	return exitOK
}

// newParser is pa's kong parser over c, printing help on stdout and
// kong's errors on stderr; its exit hook panics with kongExit (see run).
func newParser(c *cli, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(c, append(mappers(),
		kong.Name("pa"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Vars{"version": "pa " + versionString()},
		kong.Exit(func(code int) { panic(kongExit(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.KindMapper(reflect.String, rawString),
	)...)
}

// rawString maps a flag or argument to a string field byte for byte. kong's
// own string mapper transcodes the value through JSON, which replaces
// invalid UTF-8 with U+FFFD: an --agent or --home that is not UTF-8 would
// become another agent's name or another folder.
var rawString = kong.MapperFunc(func(ctx *kong.DecodeContext, target reflect.Value) error {
	t, err := ctx.Scan.PopValue("string")
	if err != nil {
		return err
	}
	s, ok := t.Value.(string)
	if !ok {
		return fmt.Errorf("expected a string but got %v", t.Value)
	}
	target.SetString(s)
	return nil
})

// hookEnvelopeIn reports whether args ask for --hook-envelope (before any
// "--"), read from the raw args so that even an args list kong cannot parse
// gets its envelope. --hook-envelope=false does not.
func hookEnvelopeIn(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--hook-envelope" {
			return true
		}
		if v, ok := strings.CutPrefix(a, "--hook-envelope="); ok {
			b, err := strconv.ParseBool(v)
			return b || err != nil
		}
	}
	return false
}

// emptyFlags refuses --home and --agent given as "" (on the command line or
// through PA_HOME or PA_AGENT set to ""): an empty value is a mistake, not
// a request for the default estate or for every agent. The line says how
// to leave the flag out where the command allows it (list, check and
// unlock: for every agent), and only to give a value where it does not
// (open's --agent).
func emptyFlags(kctx *kong.Context, args []string) error {
	for _, f := range kctx.Flags() {
		if f.Name != "home" && f.Name != "agent" || !f.Set {
			continue
		}
		if v, ok := kctx.FlagValue(f).(string); !ok || v != "" {
			continue
		}
		given := flagGiven(args, f.Name)
		what := map[string]string{"home": "the estate's folder", "agent": "an agent's name"}[f.Name]
		// The way out the flag has: --home left out is ~/.pa, --agent left
		// out every agent; a required flag (dispatch open's --agent) has
		// none.
		leaveOut, unset := ", or leave --"+f.Name+" out", ", or unset it"
		switch {
		case f.Required:
			leaveOut, unset = "", ""
		case f.Name == "agent":
			leaveOut, unset = leaveOut+" for every agent", unset+" for every agent"
		}
		if given || len(f.Envs) == 0 {
			return failFlag(f.Name, "--%s is empty: give %s%s", f.Name, what, leaveOut)
		}
		return failFlag(f.Name, "%s is set but empty: set it to %s%s", f.Envs[0], what, unset)
	}
	return nil
}

// flagGiven reports whether --name is on the command line args (before
// any "--"), as --name VALUE or --name=VALUE, rather than from its
// environment variable.
func flagGiven(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--"+name || strings.HasPrefix(a, "--"+name+"=") {
			return true
		}
	}
	return false
}

// agentFromEnv refuses an invalid agent name that came from PA_AGENT, not
// from --agent, and says so: the operator who typed no --agent must learn
// where the name was read. An invalid --agent is each command's own
// usage error (checkAgent).
func agentFromEnv(kctx *kong.Context, args []string) error {
	for _, f := range kctx.Flags() {
		if f.Name != "agent" || !f.Set || len(f.Envs) == 0 || flagGiven(args, f.Name) {
			continue
		}
		v, _ := kctx.FlagValue(f).(string)
		if err := estate.ValidateAgent(v); v != "" && err != nil {
			unset := ", or unset it for every agent"
			if f.Required {
				unset = ""
			}
			return fail(exitUsage, "%s holds an %v; set it to an agent's name%s", f.Envs[0], err, unset)
		}
	}
	return nil
}

// valueFlags are pa's flags that take a value: given twice, kong keeps the
// last one silently (see repeatedFlags).
var valueFlags = []string{"home", "agent", "title", "wait", "stale-window"}

// repeatedFlags is the usage error of a value flag given twice in args
// (before any "--"), as --flag VALUE or --flag=VALUE: kong would keep the
// last, so that `unlock --force --agent a --agent b` removed b's lock when
// the operator meant a's. A flag given once on the command line and once by
// its environment variable is no repeat: the command line wins, as --help
// says.
func repeatedFlags(args []string) error {
	seen := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		for _, f := range valueFlags {
			var v string
			switch {
			case a == "--"+f && i+1 < len(args):
				i++
				v = args[i]
			case strings.HasPrefix(a, "--"+f+"="):
				v = a[len("--"+f+"="):]
			default:
				continue
			}
			if first, ok := seen[f]; ok {
				return failFlag(f, "--%s is given twice (%s, then %s): give it once", f, strconv.Quote(first), strconv.Quote(v))
			}
			seen[f] = v
			break
		}
	}
	return nil
}

// output is where commands print.
type output struct {
	stdout, stderr io.Writer
}

// oneLine keeps a message on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// escaped is the line for a name of the estate that leads out of it (a
// symbolic link to a folder outside, say): the estate is opened through
// os.Root, which refuses it, so nothing outside is ever read or written.
func escaped(name string) string {
	return termsafe.Value(name) + " leads out of the estate (a symbolic link to outside it?): refused; pa reads and writes nothing outside the estate"
}
