package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// spliceRecord is a PartsFunc that appends rec to a JSON array of strings
// by splicing: the bytes read up to the closing ']' (a slice of current, not
// a copy), then the new element, then the ']'.
func spliceRecord(rec string, runs *[][]byte) lockspec.PartsFunc {
	return func(cur []byte, exists bool) ([][]byte, error) {
		*runs = append(*runs, cur)
		if !exists {
			return [][]byte{[]byte(`["` + rec + `"`), []byte("]")}, nil
		}
		body := bytes.TrimSuffix(cur, []byte("]"))
		return [][]byte{body, []byte(`,"` + rec + `"`), nil, []byte("]")}, nil
	}
}

// UpdateParts commits the concatenation of fn's parts, whole, with the
// same steps as Update; the folder keeps only the file.
func TestUpdatePartsLandsWhole(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		var steps []lockspec.Step
		opts := fast(nil)
		lockspec.SetOnStep(&opts, func(s lockspec.Step) { steps = append(steps, s) })
		var runs [][]byte
		for _, rec := range []string{"a", "b", "c"} {
			steps = nil
			if err := lockspec.UpdateParts(context.Background(), e.fsys, target, spliceRecord(rec, &runs), opts); err != nil {
				t.Fatal(err)
			}
		}
		if got := string(e.readRaw(t, target)); got != `["a","b","c"]` {
			t.Fatalf("the file holds %q; want [\"a\",\"b\",\"c\"] (every part of every commit)", got)
		}
		partSteps := steps
		steps = nil
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("d"), opts); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(partSteps, steps) || !slices.Contains(steps, lockspec.StepCommitFenced) {
			t.Errorf("UpdateParts steps %q; want Update's %q", partSteps, steps)
		}
		e.wantRecords(t, "a", "b", "c", "d")
		e.onlyTarget(t, true)
	})
}

// A lost lock refuses a commit from parts at its fence, and the whole
// read-modify-write runs again on a fresh read: the newer holder's record
// is kept and the retry's parts are spliced onto it.
func TestUpdatePartsRetriesAfterALostLock(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, []byte(`["a"]`))
		opts := fast(nil)
		forced := false
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s != lockspec.StepCommitTempWritten || forced {
				return
			}
			forced = true // unlock --force, then a newer writer commits
			if err := os.Remove(e.path(lockP)); err != nil {
				t.Error(err)
			}
			h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
			if err != nil {
				t.Error(err)
				return
			}
			if err := h.Commit([]byte(`["a",`), []byte(`"newer"]`)); err != nil {
				t.Error(err)
			}
			if err := h.Release(); err != nil {
				t.Error(err)
			}
		})
		var runs [][]byte
		if err := lockspec.UpdateParts(context.Background(), e.fsys, target, spliceRecord("b", &runs), opts); err != nil {
			t.Fatal(err)
		}
		if len(runs) != 2 || string(runs[0]) != `["a"]` || string(runs[1]) != `["a","newer"]` {
			t.Fatalf("fn ran on %q; want twice, the second time on the newer holder's commit", runs)
		}
		if got := string(e.readRaw(t, target)); got != `["a","newer","b"]` {
			t.Fatalf("the file holds %q; want [\"a\",\"newer\",\"b\"]", got)
		}
		e.onlyTarget(t, true)
	})
}

// The fence refuses a commit from parts, and a board-style write from
// parts, once the hold's lock is lost: nothing is written and the temp
// files are removed. With the lock held both land whole.
func TestCommitFromPartsIsFenced(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, []byte(`["old"]`))
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(nil))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Commit([]byte(`["new",`), []byte(`"parts"]`)); err != nil {
			t.Fatal(err)
		}
		if err := h.WriteFenced("d/other.json", []byte("1"), nil, []byte("23")); err != nil {
			t.Fatal(err)
		}
		if got, other := string(e.readRaw(t, target)), string(e.readRaw(t, "d/other.json")); got != `["new","parts"]` || other != "123" {
			t.Fatalf("the files hold %q and %q; want every part of each", got, other)
		}
		if err := os.Remove(e.path(lockP)); err != nil { // unlock --force
			t.Fatal(err)
		}
		if err := h.Commit([]byte(`["lost",`), []byte(`"x"]`)); !errors.Is(err, lockspec.ErrLockLost) {
			t.Errorf("Commit after the lock was lost = %v; want ErrLockLost", err)
		}
		if err := h.WriteFenced("d/other.json", []byte("lost")); !errors.Is(err, lockspec.ErrLockLost) {
			t.Errorf("WriteFenced after the lock was lost = %v; want ErrLockLost", err)
		}
		if got, other := string(e.readRaw(t, target)), string(e.readRaw(t, "d/other.json")); got != `["new","parts"]` || other != "123" {
			t.Errorf("after the refused writes the files hold %q and %q; want them unchanged", got, other)
		}
		if got := e.ls(t); !slices.Equal(got, []string{"log.json", "other.json"}) {
			t.Errorf("folder holds %q; want the two files only (no temp file)", got)
		}
	})
}

// A part whose write fails ends the commit with that error: nothing is
// committed, and the temp file is removed.
func TestCommitWhosePartFailsCommitsNothing(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, []byte(`["old"]`))
		ffs := faultfs.New(e.fsys)
		writes := 0
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpWrite && strings.Contains(ev.Name, ".tmp-") {
				if writes++; writes == 2 {
					return syscall.ENOSPC
				}
			}
			return nil
		})
		var runs [][]byte
		opts := fast(nil)
		err := lockspec.UpdateParts(context.Background(), ffs, target, spliceRecord("b", &runs), opts)
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("UpdateParts = %v; want the second part's ENOSPC", err)
		}
		if got := string(e.readRaw(t, target)); got != `["old"]` {
			t.Errorf("the file holds %q; want it unchanged", got)
		}
		e.onlyTarget(t, true)
	})
}
