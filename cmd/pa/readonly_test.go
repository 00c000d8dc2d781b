package main

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// On a volume mounted read-only, open and repair fail with nothing written
// and do not tell the operator to try again: the line ends saying the
// volume is read-only. Any other failed write of the lock or board still
// ends with "the lock is free now, try again".
func TestReadOnlyVolumeIsNotTryAgain(t *testing.T) {
	const readOnlyTail = "; nothing was written; the volume is mounted read-only: nothing can be recorded until it is remounted read-write"
	const again = "; nothing was written; the lock is free now, try again"
	pending := func(errno error) faultfs.Rule {
		return faultfs.Rule{Op: faultfs.OpOpenFile, Match: "spawn-log.json.lock.pending-*", Err: errno}
	}
	claim := func(errno error) faultfs.Rule {
		return faultfs.Rule{Op: faultfs.OpOpenFile, Match: "spawn-log.json.lock.claim-*", Err: errno}
	}
	boardTmp := func(errno error) faultfs.Rule {
		return faultfs.Rule{Op: faultfs.OpOpenFile, Match: "board.json.tmp-*", Err: errno}
	}
	repairThrough := func(t *testing.T, rule faultfs.Rule) exit2 {
		dir, fsys := faultEstate(t, false, rule)
		estatetest.WriteFile(t, dir, "agents/demo/spawn-log.json", threeRecords("demo"))
		estatetest.WriteFile(t, dir, "agents/demo/board/board.json", twoItems)
		opts := locking.Options{Timeout: locking.NoWait}
		added, err := dispatch.Repair(context.Background(), fsys, "demo", opts)
		if err == nil {
			t.Fatalf("repair went through (%v); want it to fail", added)
		}
		return lineOf(t, repairError(fsys, advice{pa: "pa", agent: "demo"}, time.Second, added, err, opts))
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T) exit2
		tail string
	}{
		{"open, read-only", func(t *testing.T) exit2 {
			_, f := faultEstate(t, false, pending(syscall.EROFS))
			return openThrough(t, f)
		}, readOnlyTail},
		{"open, no space", func(t *testing.T) exit2 {
			_, f := faultEstate(t, false, pending(syscall.ENOSPC))
			return openThrough(t, f)
		}, again},
		{"repair's lock, read-only", func(t *testing.T) exit2 { return repairThrough(t, pending(syscall.EROFS)) }, readOnlyTail},
		{"repair's board, read-only", func(t *testing.T) exit2 { return repairThrough(t, boardTmp(syscall.EROFS)) }, readOnlyTail},
		{"open, a dead holder's lock left, read-only", func(t *testing.T) exit2 {
			dir, f := faultEstate(t, false, claim(syscall.EROFS))
			estatetest.WriteFile(t, dir, demoLog+".lock", lockJSON(locktest.DeadPID(t), hostname(), time.Now()))
			return openThrough(t, f)
		}, readOnlyTail},
		{"repair's board, no space", func(t *testing.T) exit2 { return repairThrough(t, boardTmp(syscall.ENOSPC)) }, again},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.run(t)
			if r.code != exitProblem || !strings.HasSuffix(r.stderr, tc.tail+"\n") {
				t.Errorf("exit %d, stderr %q; want exit 2 ending %q", r.code, r.stderr, tc.tail)
			}
		})
	}
}

// An unlock of a dead holder's lock on a read-only volume fails with
// nothing removed and says the volume is read-only, not to run the same
// unlock again, which would fail the same way.
func TestReadOnlyVolumeUnlockSaysSo(t *testing.T) {
	dir, f := faultEstate(t, false, faultfs.Rule{Op: faultfs.OpOpenFile, Match: "spawn-log.json.lock.claim-*", Err: syscall.EROFS})
	estatetest.WriteFile(t, dir, demoLog+".lock", lockJSON(locktest.DeadPID(t), hostname(), time.Now()))
	r := unlockThrough(t, f, false)
	if tail := "; " + readOnlyVolume + "\n"; r.code != exitProblem || !strings.Contains(r.stderr, "unlock failed: ") || !strings.HasSuffix(r.stderr, tail) {
		t.Errorf("exit %d, stderr %q; want exit 2, unlock failed, ending %q", r.code, r.stderr, tail)
	}
}
