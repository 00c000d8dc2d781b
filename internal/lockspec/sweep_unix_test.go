//go:build unix

package lockspec_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// A sweep that judged a staging directory of a pid gone as it sees it (an
// owner of another pid namespace, staging its lock) holds the marker's
// kernel lock from its try through the marker's move out: the owner,
// taking that lock just after its create, is refused it while the sweep
// is between its judgement and its removal, so it never goes on with a
// marker about to go (it finds the name gone and stages again). Once the
// sweep is done the directory is gone and nothing is left.
func TestSweepHoldsAStagedMarkerThroughItsRemoval(t *testing.T) {
	self := realIdentity(t)
	e := dirEstate(t)
	_, _, pidGone := realJudges(t, self)
	stage := "d/log.json.lock.staged-" + lockspec.HostHash(hostname(t)) + "-" + strconv.Itoa(os.Getpid()) + "-0123456789abcdef01234567"
	if err := os.Mkdir(e.path(stage), 0o755); err != nil {
		t.Fatal(err)
	}
	marker := stage + "/" + "aaaaaaaaaaaaaaaaaaaaaaaa.json"
	e.writeRaw(t, marker, nil) // made, not yet held, not yet written
	judged, resume := make(chan struct{}), make(chan struct{})
	o := dirNoWait(pidGone)
	pauseAt(&o, lockspec.StepSweepJudged, func() { close(judged) }, resume)
	done := make(chan error, 1)
	var h *lockspec.Hold
	go func() {
		var err error
		h, err = lockspec.Acquire(context.Background(), e.fsys, target, o)
		done <- err
	}()
	select {
	case <-judged:
	case err := <-done:
		t.Fatalf("the sweeper ended (%v) without judging the staging directory", err)
	}
	f, err := e.fsys.OpenFile(marker, vfs.ReadFlags, 0)
	if err != nil {
		close(resume)
		t.Fatal(err)
	}
	err = vfs.TryLock(f, marker)
	f.Close()
	close(resume)
	if err == nil {
		t.Error("the owner was granted its marker's kernel lock while the sweep was between its judgement and the marker's removal")
	}
	if err := <-done; err != nil {
		t.Fatalf("the sweeper's acquire: %v", err)
	}
	if err := h.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left: %q", got)
	}
}
