package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// openEstate opens the estate's folder (--home, PA_HOME, or ~/.pa, created
// when missing) as a vfs.FS on the real OS; a pafault build may wrap it
// (fault_pafault.go). The caller closes it.
func (g *globals) openEstate() (vfs.FS, func(), error) {
	home := g.Home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil, nil, fail(exitUsage, "no --home given, no PA_HOME and no home folder: %v", err)
		}
		home = filepath.Join(h, ".pa")
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, nil, fail(exitUsage, "estate %s: %v", home, err)
	}
	o, err := osfs.New(home)
	if err != nil {
		return nil, nil, fail(exitUsage, "estate %s: %v", home, err)
	}
	fsys, err := faultFS(o)
	if err != nil {
		_ = o.Close()
		return nil, nil, fail(exitUsage, "%v", err)
	}
	return fsys, func() { _ = o.Close() }, nil
}

// agentsOf returns the one agent given, checked, or, when none is given,
// every agent of the estate.
func agentsOf(fsys vfs.FS, agent string) ([]string, error) {
	if agent != "" {
		return []string{agent}, nil
	}
	return estate.Agents(fsys)
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
	o.OnStep = onStep
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
