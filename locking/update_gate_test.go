package locking_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/pa-toolkit/pa/locking"
)

// A GatedFunc's gate runs once the temp file is written, before the fence
// (so before the rename): its error is the update's, with nothing
// committed, no temp file left and the lock released; a gate that passes
// lets the commit land.
func TestUpdateMappedGateRunsBeforeTheFence(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		e.writeRaw(t, target, []byte("old"))
		var order []string
		opts := fast(locking.OSHost())
		opts.OnStep = func(s locking.Step) {
			if s == locking.StepCommitTempWritten || s == locking.StepCommitFenced || s == locking.StepCommitRenamed {
				order = append(order, string(s))
			}
		}
		refused := errors.New("the board does not parse")
		err := locking.UpdateMapped(context.Background(), e.fsys, target, func([]byte, bool) ([][]byte, func() error, error) {
			return [][]byte{[]byte("new")}, func() error { order = append(order, "gate"); return refused }, nil
		}, opts)
		if !errors.Is(err, refused) {
			t.Fatalf("UpdateMapped with a gate that refuses: %v; want its error", err)
		}
		if want := []string{string(locking.StepCommitTempWritten), "gate"}; !slices.Equal(order, want) {
			t.Fatalf("steps %q; want %q (the gate after the temp file, and no fence, no rename)", order, want)
		}
		if got := e.readRaw(t, target); string(got) != "old" {
			t.Fatalf("file holds %q after a refused gate; want it untouched", got)
		}
		e.onlyTarget(t, true)

		order = nil
		err = locking.UpdateMapped(context.Background(), e.fsys, target, func([]byte, bool) ([][]byte, func() error, error) {
			return [][]byte{[]byte("new")}, func() error { order = append(order, "gate"); return nil }, nil
		}, opts) // at once: the refused update released the lock
		if err != nil || string(e.readRaw(t, target)) != "new" {
			t.Fatalf("UpdateMapped with a gate that passes: %v, file %q", err, e.readRaw(t, target))
		}
		if want := []string{string(locking.StepCommitTempWritten), "gate", string(locking.StepCommitFenced), string(locking.StepCommitRenamed)}; !slices.Equal(order, want) {
			t.Fatalf("steps %q; want %q", order, want)
		}
		e.onlyTarget(t, true)
	})
}
