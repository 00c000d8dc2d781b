package locking_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/pa-toolkit/pa/locking"
)

// An error from the UpdateFunc ends the update with nothing written and the
// lock released; a missing file reads as exists=false.
func TestUpdateFuncErrorWritesNothing(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		boom := errors.New("boom")
		var sawExists = true
		err := locking.Update(context.Background(), e.fsys, target, func(cur []byte, exists bool) ([]byte, error) {
			sawExists = exists
			return nil, boom
		}, fast(nil))
		if !errors.Is(err, boom) || sawExists {
			t.Fatalf("err = %v, exists = %v", err, sawExists)
		}
		if got := e.ls(t); len(got) != 0 {
			t.Fatalf("folder holds %q", got)
		}
		if _, err := locking.Inspect(e.fsys, target, fast(nil)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("Inspect after release: %v", err)
		}
	})
}
