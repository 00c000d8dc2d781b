//go:build unix

package lockspec_test

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// pauseAt makes the writer of o stop each time it reaches step: it calls
// reached (which tells the test it is there), then waits until resume is
// closed. Its users are the tests of real kernel locks, all unix-only, so
// it is too; an untagged test that wants it needs it moved to an untagged
// file (GOOS=windows go vet fails otherwise).
func pauseAt(o *lockspec.Options, step lockspec.Step, reached func(), resume <-chan struct{}) {
	lockspec.SetOnStep(o, func(s lockspec.Step) {
		if s == step {
			reached()
			<-resume
		}
	})
}

// sendNames is a reached for pauseAt: it sends on names each name of e's
// folder that holds mark, as "d/" + the name.
func (e *estate) sendNames(t *testing.T, names chan<- string, mark string) func() {
	return func() {
		for _, n := range e.ls(t) {
			if strings.Contains(n, mark) {
				names <- "d/" + n
			}
		}
	}
}
