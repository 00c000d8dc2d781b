package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// resolve sets g.dir, the estate's folder, and g.home, the folder every
// command a message names carries: --home (or PA_HOME) made absolute, so a
// command pasted into another shell, in another folder or with another
// PA_HOME, still acts on this estate; "" for the default estate ~/.pa,
// whose commands stay plain `pa ...`. A --home that no message could show
// as it is (a control or bidirectional character, or not UTF-8) is a usage
// error.
func (g *globals) resolve() error {
	if g.Home == "" { // not given: an empty --home is refused before (emptyFlags)
		h, err := os.UserHomeDir()
		if err != nil {
			return fail(exitUsage, "no --home given, no PA_HOME and no home folder: %v", err)
		}
		g.home, g.dir = "", filepath.Join(h, ".pa")
		return nil
	}
	if !termsafe.Clean(g.Home) {
		return fail(exitUsage, "--home %s: it holds a control or bidirectional character (or is not UTF-8), which no message can show as it is; name another folder",
			strconv.QuoteToASCII(g.Home))
	}
	abs, err := filepath.Abs(g.Home)
	if err != nil {
		return fail(exitUsage, "--home %s: %v", g.Home, err)
	}
	g.home, g.dir = abs, abs
	return nil
}

// program is how the commands a message names start: `pa`, or `pa --home
// DIR` outside the default estate (programFor). Valid once the estate is
// opened.
func (g *globals) program() string { return programFor(g.home) }

// openEstate opens the estate's folder (--home, PA_HOME, or ~/.pa) as a
// vfs.FS on the real OS; a pafault build may wrap it (fault_pafault.go).
// With create (dispatch open alone) the folder is created when missing.
// Without it (list, check, unlock: they create no folder) an estate that is
// missing, or holds no agents folder, is a usage error naming the folder,
// so that a mistyped --home is never taken for an empty estate. The caller
// closes it.
func (g *globals) openEstate(create bool) (vfs.FS, func(), error) {
	if err := g.resolve(); err != nil {
		return nil, nil, err
	}
	if create {
		if err := os.MkdirAll(g.dir, 0o755); err != nil {
			return nil, nil, fail(exitUsage, "estate %s: %s", shown(g.dir), termsafe.Escape(err.Error()))
		}
	}
	o, err := osfs.New(g.dir)
	if errors.Is(err, fs.ErrNotExist) && !create {
		return nil, nil, g.noEstate()
	}
	if err != nil {
		return nil, nil, fail(exitUsage, "estate %s: %s", shown(g.dir), termsafe.Escape(err.Error()))
	}
	if !create {
		if _, err := o.ReadDir(estate.AgentsDir); errors.Is(err, fs.ErrNotExist) {
			_ = o.Close()
			return nil, nil, g.noEstate()
		}
	}
	if err := agentsFolder(o); err != nil {
		_ = o.Close()
		return nil, nil, err
	}
	fsys, err := faultFS(o)
	if err != nil {
		_ = o.Close()
		return nil, nil, fail(exitUsage, "%v", err)
	}
	return fsys, func() { _ = o.Close() }, nil
}

// agentsFolder is nil unless the estate's agents/ is there and is no
// folder (a regular file, say): then it is the usage error (exit 1) saying
// so in plain words, as board check says it of an agent's files, never a
// system call's ("readdirent agents: not a directory"). A missing agents/,
// one that leads out of the estate or that cannot be read is left to the
// commands, which report it themselves (a folder that can be passed
// through but not listed still serves a command given --agent).
func agentsFolder(fsys vfs.FS) error {
	fi, err := fsys.Stat(estate.AgentsDir)
	if err != nil || fi.IsDir() {
		return nil
	}
	return fail(exitUsage, "%s cannot be read: it is %s, not a folder; look at it and fix or move it by hand", estate.AgentsDir, filekind.Any(fi.Mode()))
}

// agentFolder is nil unless agent's folder (agents/<agent>, the agent
// given to open, list or unlock) is there and is no folder: then it is the
// usage error (exit 1) naming it in plain words, the line board check
// --agent reports as a problem, not a system call's words ("openat
// agents/<agent>/spawn-log.json: not a directory") nor unlock's advice to
// run the same unlock again. A name that reaches a folder spelled
// otherwise on disk is the usage error of agentSpelling. Anything else is
// left to the command.
func agentFolder(fsys vfs.FS, agent string) error {
	fi, err := fsys.Stat(estate.AgentDir(agent))
	if err != nil || fi.IsDir() {
		return agentSpelling(fsys, agent)
	}
	return fail(exitUsage, "%s cannot be read: it is %s, not an agent's folder; look at it and fix or move it by hand",
		path.Join(estate.AgentsDir, termsafe.Cap(agent)), filekind.Any(fi.Mode()))
}

// noEstate is the usage error of a read-only command in a folder where
// nothing was ever recorded.
func (g *globals) noEstate() error {
	return fail(exitUsage, "no estate at %s (nothing recorded there yet)", shown(g.dir))
}

// noAgent is the line for an agent named (--agent or PA_AGENT) that has no
// folder in the estate: nothing was ever recorded for it, so it is most
// likely mistyped. For list and board check it is bad input (exit 1), not
// an agent with nothing to show; unlock says it after "no lock" (exit 0).
// dir is the estate's folder (globals.dir).
func noAgent(dir, agent string) string {
	return fmt.Sprintf("no agent %s in the estate %s (nothing recorded for it yet)", strconv.Quote(agent), shown(dir))
}

// hasAgent reports whether agent (valid) has a folder in the estate fsys.
// Only a missing folder is false: any other error is left to the reads
// that follow, which report it (a folder leading out of the estate, say).
func hasAgent(fsys vfs.FS, agent string) bool {
	_, err := fsys.Stat(estate.AgentDir(agent))
	return !errors.Is(err, fs.ErrNotExist)
}

// knownAgent is nil when agent is "" (every agent) or has a folder in the
// estate spelled as given, else the usage error of noAgent or of
// agentSpelling.
func (g *globals) knownAgent(fsys vfs.FS, agent string) error {
	if agent == "" {
		return nil
	}
	if hasAgent(fsys, agent) {
		return agentSpelling(fsys, agent)
	}
	return fail(exitUsage, "%s", noAgent(g.dir, agent))
}

// shown is a path for a message: whole, with only the characters a terminal
// must not see raw escaped.
func shown(p string) string { return termsafe.Escape(p) }

// agentsOf returns the one agent given, checked, or, when none is given,
// every agent of the estate (estate.Agents) and, among them in name order,
// every agent folder that is a symbolic link leading out of the estate: it
// is never followed (os.Root refuses it), and every command that acts on
// it gets the error osfs.IsEscape matches, so it reports the folder instead
// of skipping it silently. A link to a folder inside the estate is no agent
// of its own (it is the folder it names), nor is a dangling one.
func agentsOf(fsys vfs.FS, agent string) ([]string, error) {
	if agent != "" {
		return []string{agent}, nil
	}
	agents, err := estate.Agents(fsys)
	if err != nil {
		return nil, err
	}
	entries, err := fsys.ReadDir(estate.AgentsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return agents, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Type()&fs.ModeSymlink == 0 || estate.ValidateAgent(e.Name()) != nil {
			continue
		}
		if _, err := fsys.Stat(estate.AgentDir(e.Name())); osfs.IsEscape(err) {
			agents = append(agents, e.Name())
		}
	}
	slices.Sort(agents)
	return agents, nil
}

// checkAgent checks a given agent name before anything is opened, so that
// a bad name touches nothing (exit 1).
func checkAgent(agent string) error {
	if err := estate.ValidateAgent(agent); err != nil {
		return fail(exitUsage, "%v", err)
	}
	return nil
}

// lockOptions are the lock's options for a command that waits --wait for
// the lock: 0 fails at once when it is held (locking.NoWait).
func lockOptions(wait time.Duration) (locking.Options, error) {
	var o locking.Options
	onStep, err := faultStep()
	if err != nil {
		return o, fail(exitUsage, "%v", err)
	}
	lockspec.SetOnStep(&o, onStep)
	switch {
	case wait < 0:
		return o, fail(exitUsage, "--wait %s: want a duration of 0 or more", wait)
	case wait == 0:
		o.Timeout = locking.NoWait
	default:
		o.Timeout = wait
	}
	return o, nil
}

// lockDisplay is the spawn-log lock of agent as messages show it, the agent
// capped for display: agents/<capped>/spawn-log.json.lock.
func lockDisplay(agent string) string {
	return estate.Display(agent, locking.LockName(estate.SpawnLogPath(agent)))
}
