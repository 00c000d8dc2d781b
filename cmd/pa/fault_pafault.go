//go:build pafault

package main

import (
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
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

// faultFS wraps fsys in nolinkfs when PA_FAULT_LINK_ERRNO is set.
func faultFS(fsys vfs.FS) (vfs.FS, error) {
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

// faultStep returns a step hook that kills the process at PA_FAULT_STEP, or
// an error when that is not a step of the lock.
func faultStep() (func(lockspec.Step), error) {
	want := lockspec.Step(os.Getenv("PA_FAULT_STEP"))
	if want == "" {
		return nil, nil
	}
	if !slices.Contains(lockspec.Steps, want) {
		return nil, fmt.Errorf("PA_FAULT_STEP %q is not a step of the lock", want)
	}
	return func(s lockspec.Step) {
		if s != want {
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
