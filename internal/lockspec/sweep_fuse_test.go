package lockspec_test

// On the FUSE model (vfs/vfstest/fusemodel; docs/filesystems.md): a
// .fuse_hidden name beside the lock.

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// A .fuse_hidden name is never taken for one of the lock's: not by the
// sweep (even when it holds a dead holder's lock bytes, as one left by a
// lock removed while a reader had it open does), not by a break's listing.
// A writer goes on at once beside it, and it goes when the reader closes.
func TestHiddenNamesAreNotOurs(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		fsys := fusemodel.New(e.fsys)
		m := locktest.NewMachine("host-a")
		ctx := context.Background()
		write := func(rec string) {
			t.Helper()
			o := fast(m.Spawn())
			o.Timeout = lockspec.NoWait
			if err := lockspec.Update(ctx, fsys, target, appendRecord(rec), o); err != nil {
				t.Fatalf("writing %s beside hidden names: %v", rec, err)
			}
		}
		// Left from earlier: hidden names holding a dead holder's lock and
		// a dead breaker's claim, however old.
		dead := m.Spawn()
		dead.Kill()
		stale := map[string][]byte{
			"d/.fuse_hidden0000000800000001": lockJSON(dead.PID(), "host-a", true, "deaddeaddeaddeaddeaddead", time.Now()),
			"d/.fuse_hidden0000000900000002": []byte(`{"pid":` + strconv.Itoa(dead.PID()) + `,"hostname":"host-a"}`),
		}
		for name, data := range stale {
			e.writeRaw(t, name, data)
			if err := os.Chtimes(e.path(name), time.Now().Add(-24*time.Hour), time.Now().Add(-24*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		deadLock(t, e, m) // a break lists the folder too
		write("a")

		// A reader has the lock open while its holder releases it: the
		// moved lock is removed while open, so it stays hidden meanwhile.
		h1, err := lockspec.Acquire(ctx, fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		reader, err := fsys.OpenFile(lockP, os.O_RDONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := h1.Release(); err != nil {
			t.Fatal(err)
		}
		hidden := fsys.Hidden()
		if len(hidden) != 1 {
			t.Fatalf("a release of a lock a reader had open made hidden names %q; want one (the model)", hidden)
		}
		write("b")
		if !slices.Contains(e.ls(t), strings.TrimPrefix(hidden[0], "d/")) {
			t.Fatalf("the hidden name %s went while its reader still had it open: %q", hidden[0], e.ls(t))
		}
		reader.Close()

		for name, data := range stale {
			if got := e.readRaw(t, name); !bytes.Equal(got, data) {
				t.Errorf("%s changed to %q", name, got)
			}
		}
		e.wantRecords(t, "a", "b")
		want := []string{".fuse_hidden0000000800000001", ".fuse_hidden0000000900000002", "log.json"}
		if got := e.ls(t); !slices.Equal(got, want) {
			t.Fatalf("the folder holds %q; want %q: the hidden names not ours stay, the reader's went at its close", got, want)
		}
	})
}
