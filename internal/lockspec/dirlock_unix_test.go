//go:build unix

package lockspec_test

import (
	"context"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// The proof of life works in the directory shape: the owner holds the
// kernel lock of its marker, which the record claims; a judge of another
// pid namespace sees it alive by it, and dead once it is let go.
func TestDirKernelLockEvidence(t *testing.T) {
	self := realIdentity(t)
	e := dirEstate(t)
	_, otherNS, _ := realJudges(t, self)
	h, err := lockspec.Acquire(context.Background(), e.fsys, target, lockspec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	got := e.inspectBy(t, otherNS)
	if !got.Directory || !got.KernelLock || got.State != lockspec.StateAlive || got.Evidence != lockspec.EvidenceKernelLock {
		t.Fatalf("judged %v (%q, claim %v, directory %v); want alive by the marker's kernel lock", got.State, got.Evidence, got.KernelLock, got.Directory)
	}
	lockspec.DropKernelLock(h)
	if got := e.inspectBy(t, otherNS); got.State != lockspec.StateDead {
		t.Fatalf("judged %v (%q) with the kernel lock let go; want dead", got.State, got.Evidence)
	}
}
