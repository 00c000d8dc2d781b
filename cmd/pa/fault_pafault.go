//go:build pafault

package main

import (
	"fmt"
	"os"
	"path"
	"slices"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
)

// This file is built only with -tags pafault, for tests of the real binary.
// The shipped pa contains none of it.
//
//   - PA_FAULT_LINK_ERRNO=ENOTSUP|EPERM|EOPNOTSUPP wraps the estate in
//     nolinkfs: every link() fails with that errno (the no-hard-links class);
//     with PA_FAULT_PUBLISH=exclusive the lock is published by the spec's
//     exclusive create there, not by the directory publish.
//   - PA_FAULT_STEP=<step> (a lockspec.Step name, e.g. commit:renamed) kills
//     this process with SIGKILL (TerminateProcess on Windows) the first time
//     the lock reaches that step.
//   - PA_FAULT_LOSE_LOCK_AT=<step> removes every agent's spawn-log lock
//     (agents/*/spawn-log.json.lock) the first time the lock reaches that
//     step, as if another process had taken it: at commit:renamed (the
//     spawn-log's commit; the board write reports no step), the board
//     write's fence then finds the lock lost.

// loseLockEstate is the estate faultFS was given, whose locks
// PA_FAULT_LOSE_LOCK_AT removes.
var loseLockEstate vfs.FS

// faultFS wraps fsys in nolinkfs when PA_FAULT_LINK_ERRNO is set.
func faultFS(fsys vfs.FS) (vfs.FS, error) {
	loseLockEstate = fsys
	name := os.Getenv("PA_FAULT_LINK_ERRNO")
	if name == "" {
		return fsys, nil
	}
	errno, err := nolinkfs.ParseErrno(name)
	if err != nil {
		return nil, fmt.Errorf("PA_FAULT_LINK_ERRNO: %w", err)
	}
	n := nolinkfs.New(fsys, errno)
	if os.Getenv("PA_FAULT_PUBLISH") == "exclusive" {
		n = n.ExclusiveCreate() // the spec's exclusive create, not the directory publish
	}
	return n, nil
}

// faultStep returns a step hook that kills the process at PA_FAULT_STEP
// and loses the lock at PA_FAULT_LOSE_LOCK_AT, or an error when either is
// not a step of the lock.
func faultStep() (func(lockspec.Step), error) {
	kill, err := stepOf("PA_FAULT_STEP")
	if err != nil {
		return nil, err
	}
	lose, err := stepOf("PA_FAULT_LOSE_LOCK_AT")
	if err != nil {
		return nil, err
	}
	if kill == "" && lose == "" {
		return nil, nil
	}
	lost := false
	return func(s lockspec.Step) {
		if s == lose && !lost {
			lost = true
			loseLocks()
		}
		if s != kill {
			return
		}
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			_ = p.Kill() // SIGKILL on Unix
		}
		for {
			time.Sleep(time.Hour) // the kill is on its way; never go past the step
		}
	}, nil
}

// stepOf is the step the environment variable env names, "" when unset.
func stepOf(env string) (lockspec.Step, error) {
	s := lockspec.Step(os.Getenv(env))
	if s != "" && !slices.Contains(lockspec.Steps, s) {
		return "", fmt.Errorf("%s %q is not a step of the lock", env, s)
	}
	return s, nil
}

// loseLocks removes every agent's spawn-log lock in the estate: a file,
// or a directory lock (the directory publish) with what it holds.
func loseLocks() {
	if loseLockEstate == nil {
		return
	}
	agents, _ := loseLockEstate.ReadDir(estate.AgentsDir)
	for _, a := range agents {
		lock := locking.LockName(estate.SpawnLogPath(a.Name()))
		if inside, err := loseLockEstate.ReadDir(lock); err == nil {
			for _, e := range inside {
				_ = loseLockEstate.Remove(path.Join(lock, e.Name()))
			}
		}
		_ = loseLockEstate.Remove(lock)
	}
}
