package lockspec_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A guarded file whose folder is missing is refused with an error that
// names the file and its folder, not a name beside the lock: it matches
// fs.ErrNotExist, and nothing is made.
func TestAcquireInAMissingFolder(t *testing.T) {
	e := newEstate(t, classes[0])
	m := locktest.NewMachine("host-a")
	err := lockspec.Update(context.Background(), e.fsys, "missing/counter", func([]byte, bool) ([]byte, error) { return []byte("x"), nil }, fast(m.Spawn()))
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != "missing/counter" || !strings.Contains(err.Error(), "its folder missing") || strings.Contains(err.Error(), ".lock") {
		t.Errorf("Update(missing/counter) = %v; want a not-exist error naming the file and its folder", err)
	}
	if e.exists("missing") {
		t.Error("the folder was made")
	}
}
