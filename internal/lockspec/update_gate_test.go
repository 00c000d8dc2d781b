package lockspec_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// A GatedFunc's gate runs once the temp file is written, before the fence
// (so before the rename): its error is the update's, with nothing
// committed, no temp file left and the lock released; a gate that passes
// lets the commit land.
func TestUpdateMappedGateRunsBeforeTheFence(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, []byte("old"))
		var order []string
		opts := fast(lockspec.OSHost())
		lockspec.SetOnStep(&opts, func(s lockspec.Step) {
			if s == lockspec.StepCommitTempWritten || s == lockspec.StepCommitFenced || s == lockspec.StepCommitRenamed {
				order = append(order, string(s))
			}
		})
		refused := errors.New("the board does not parse")
		err := lockspec.UpdateMapped(context.Background(), e.fsys, target, func([]byte, bool) ([][]byte, func() error, error) {
			return [][]byte{[]byte("new")}, func() error { order = append(order, "gate"); return refused }, nil
		}, opts)
		if !errors.Is(err, refused) {
			t.Fatalf("UpdateMapped with a gate that refuses: %v; want its error", err)
		}
		if want := []string{string(lockspec.StepCommitTempWritten), "gate"}; !slices.Equal(order, want) {
			t.Fatalf("steps %q; want %q (the gate after the temp file, and no fence, no rename)", order, want)
		}
		if got := e.readRaw(t, target); string(got) != "old" {
			t.Fatalf("file holds %q after a refused gate; want it untouched", got)
		}
		e.onlyTarget(t, true)

		order = nil
		err = lockspec.UpdateMapped(context.Background(), e.fsys, target, func([]byte, bool) ([][]byte, func() error, error) {
			return [][]byte{[]byte("new")}, func() error { order = append(order, "gate"); return nil }, nil
		}, opts) // at once: the refused update released the lock
		if err != nil || string(e.readRaw(t, target)) != "new" {
			t.Fatalf("UpdateMapped with a gate that passes: %v, file %q", err, e.readRaw(t, target))
		}
		if want := []string{string(lockspec.StepCommitTempWritten), "gate", string(lockspec.StepCommitFenced), string(lockspec.StepCommitRenamed)}; !slices.Equal(order, want) {
			t.Fatalf("steps %q; want %q", order, want)
		}
		e.onlyTarget(t, true)
	})
}
