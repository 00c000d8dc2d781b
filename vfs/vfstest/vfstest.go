package vfstest

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// Options tune the checks.
type Options struct {
	// Goroutines is how many goroutines race in each round of the
	// concurrent checks; 0 means 16.
	Goroutines int
	// Rounds is how many rounds each concurrent check runs; 0 means 500
	// (a rename race that crashes afero's MemMapFs takes a few hundred).
	Rounds int
	// Open, when set, opens the backend under test rooted at dir, a folder
	// of the real OS. It turns on exclusive-create-processes: Processes
	// copies of the test binary (Run runs the calling test again in each)
	// race exclusive creates in one folder, each through Open.
	Open func(dir string) (vfs.FS, error)
	// Processes is how many processes race in exclusive-create-processes;
	// 0 means 4.
	Processes int
	// Skip names checks not to run.
	Skip []string
}

func (o Options) goroutines() int { return cmp0(o.Goroutines, 16) }
func (o Options) rounds() int     { return cmp0(o.Rounds, 500) }
func (o Options) processes() int  { return cmp0(o.Processes, 4) }

func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// env is what a check gets: a way to make a fresh FS, and the options.
type env struct {
	newFS func() (vfs.FS, error)
	opts  Options
}

// fresh returns a fresh FS, or the error that stops the check.
func (e *env) fresh() (vfs.FS, error) {
	fsys, err := e.newFS()
	if err != nil {
		return nil, fmt.Errorf("making the FS: %w", err)
	}
	return fsys, nil
}

// check is one named check: it returns what failed, nil when it passed.
type check struct {
	name string
	run  func(e *env) error
}

// checks are the checks of the package doc, in its order (the processes
// check is Run's own).
var checks = []check{
	{"exclusive-create", exclusiveCreate},
	{"missing-parent", missingParent},
	{"rename-over-file", renameOverFile},
	{"rename-race", renameRace},
	{"rename-onto-directory", renameOntoDirectory},
	{"remove-not-empty", removeNotEmpty},
	{"rename-no-replace", renameNoReplace},
	{"link", link},
	{"listing-after-create", listingAfterCreate},
	{"open-file", openFile},
	{"errors", errorTypes},
	{"sync", syncs},
	{"chtimes", chtimes},
	{"io-fs", ioFSTest},
}

// Run runs every check as a subtest of t, each on a fresh FS from newFS
// (called with the subtest's t, so t.TempDir and t.Cleanup belong to it).
func Run(t *testing.T, newFS func(t *testing.T) vfs.FS, opts Options) {
	t.Helper()
	if isChild() {
		runChild(t, opts)
		return
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			if slices.Contains(opts.Skip, c.name) {
				t.Skip("skipped by Options.Skip")
			}
			e := &env{newFS: func() (vfs.FS, error) { return newFS(t), nil }, opts: opts}
			if err := c.run(e); err != nil {
				var skip skipError
				if errors.As(err, &skip) {
					t.Skip(skip.why)
				}
				t.Error(err)
			}
		})
	}
	t.Run("exclusive-create-processes", func(t *testing.T) {
		switch {
		case slices.Contains(opts.Skip, "exclusive-create-processes"):
			t.Skip("skipped by Options.Skip")
		case opts.Open == nil:
			t.Skip("no Options.Open: the backend is not over the OS")
		}
		if err := exclusiveCreateProcesses(t, opts); err != nil {
			t.Error(err)
		}
	})
}

// Check runs every check but exclusive-create-processes, each on a fresh FS
// from newFS, and returns the failures joined, one a line, each led by its
// check's name; nil when every check passed.
func Check(newFS func() (vfs.FS, error), opts Options) error {
	var errs []error
	for _, c := range checks {
		if slices.Contains(opts.Skip, c.name) {
			continue
		}
		err := c.run(&env{newFS: newFS, opts: opts})
		var skip skipError
		if err != nil && !errors.As(err, &skip) {
			errs = append(errs, fmt.Errorf("%s: %w", c.name, err))
		}
	}
	return errors.Join(errs...)
}

// skipError is returned by a check that does not apply to the FS.
type skipError struct{ why string }

func (s skipError) Error() string { return "skipped: " + s.why }
