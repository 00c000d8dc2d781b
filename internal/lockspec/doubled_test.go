package lockspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// The two copies a doubled name holds in these tests: the file before a
// commit whose rename a power cut cut short, and that commit's.
var (
	olderCopy = []byte(`["r1"]`)
	newerCopy = []byte(`["r1","r2"]`)
)

// doubledVolumes returns the next boots of an exFAT volume on which name
// held olderCopy and a commit of newerCopy was cut inside its rename so
// that name's folder lists it twice (crashfs.Doubled), keyed by the copy a
// lookup finds: "older" and "newer".
func doubledVolumes(t *testing.T, name string) map[string]*crashfs.FS {
	t.Helper()
	older, newer, err := crashfs.Doubled(name, olderCopy, newerCopy)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*crashfs.FS{"older": older, "newer": newer}
}

// writeSynced makes name hold data, synced (not its folder).
func writeSynced(t *testing.T, fsys vfs.FS, name string, data []byte) {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// listed is how many times name's folder lists it.
func listed(t *testing.T, fsys vfs.FS, name string) int {
	t.Helper()
	entries, err := fsys.ReadDir(path.Dir(name))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, de := range entries {
		if de.Name() == path.Base(name) {
			n++
		}
	}
	return n
}

// wantOneCopy fails unless name's folder lists it once, lookups find want
// there, and the same holds on every next boot of a cut after the last
// operation so far: nothing of it is still to land.
func wantOneCopy(t *testing.T, fsys *crashfs.FS, name string, want []byte) {
	t.Helper()
	cut, err := fsys.CutAt(fsys.Ops())
	if err != nil {
		t.Fatal(err)
	}
	volumes := []*crashfs.FS{fsys}
	for _, st := range cut.States(nil, 0) {
		volumes = append(volumes, st.FS())
	}
	for i, v := range volumes {
		data, _, err := vfs.ReadFile(v, name, 0)
		if n := listed(t, v, name); n != 1 || err != nil || string(data) != string(want) {
			t.Fatalf("volume %d (0: live, then each state of a cut after the last op): %s listed %d times, holding %q (%v); want listed once, holding %q", i, name, n, data, err, want)
		}
	}
}

// A commit over a name its folder lists twice removes the extra entry
// right before its rename, whichever copy lookups find: the commit (made
// from the copy the update read) is then the one copy left, on the disk
// too, and the observer is told. Without the removal the rename replaces
// one entry and a lookup finds the other copy, which holds none of the
// commit.
func TestUpdateOverADoubledNameLeavesOneCopy(t *testing.T) {
	for found, fsys := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			read, _, err := vfs.ReadFile(fsys, target, 0)
			if err != nil {
				t.Fatal(err)
			}
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			var told []string
			lockspec.SetOnDoubled(&opts, func(name string, removed int) {
				told = append(told, name, strings.Repeat("x", removed))
			})
			if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts); err != nil {
				t.Fatal(err)
			}
			want, _ := appendRecord("mine")(read, true)
			wantOneCopy(t, fsys, target, want)
			if !slices.Equal(told, []string{target, "x"}) {
				t.Errorf("the observer was told %q, want %s with one entry removed", told, target)
			}
			entries, _ := fsys.ReadDir(path.Dir(target))
			if len(entries) != 1 {
				t.Errorf("the folder holds %d names after the update, want only %s", len(entries), target)
			}
		})
	}
}

// The same for a file written with WriteFenced (the board): its own
// listing (the sweep of its temp files) finds the name twice, and the
// write removes the extra entry before its rename.
func TestWriteFencedOverADoubledNameLeavesOneCopy(t *testing.T) {
	const board = "d/b/board.json"
	for found, fsys := range doubledVolumes(t, board) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			told := 0
			lockspec.SetOnDoubled(&opts, func(name string, removed int) {
				if name == board {
					told += removed
				}
			})
			h, err := lockspec.Acquire(context.Background(), fsys, target, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := h.WriteFenced(board, []byte(`["mine"]`)); err != nil {
				t.Fatal(err)
			}
			if err := h.Release(); err != nil {
				t.Fatal(err)
			}
			wantOneCopy(t, fsys, board, []byte(`["mine"]`))
			if told != 1 {
				t.Errorf("the observer was told of %d removed entries of %s, want 1", told, board)
			}
		})
	}
}

// An extra entry that cannot be removed stops the commit: nothing is
// committed (both copies stay, no temp file is left) and the error is the
// removal's.
func TestADoubledNameWhoseEntryCannotGoCommitsNothing(t *testing.T) {
	for found, volume := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			fsys := faultfs.New(volume)
			fsys.Fail(faultfs.Rule{Op: faultfs.OpRemove, Match: path.Base(target), Err: syscall.EIO})
			m := locktest.NewMachine("host")
			err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
			if !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), target+" is listed 2 times in its folder") {
				t.Fatalf("Update = %v, want the removal's EIO, naming %s listed twice", err, target)
			}
			if n := listed(t, volume, target); n != 2 {
				t.Errorf("%s is listed %d times, want 2 (nothing removed)", target, n)
			}
			entries, _ := volume.ReadDir(path.Dir(target))
			if len(entries) != 2 {
				t.Errorf("the folder holds %d names, want only the two entries of %s (no temp file, no lock)", len(entries), target)
			}
		})
	}
}

// removeNothing is a volume whose Remove of the guarded file reports
// success and removes nothing.
type removeNothing struct{ *crashfs.FS }

func (r removeNothing) Remove(name string) error {
	if name == target {
		return nil
	}
	return r.FS.Remove(name)
}

// A folder that still lists the name twice after the removals stops the
// commit after a bounded number of them, nothing committed.
func TestADoubledNameThatStaysDoubledCommitsNothing(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(removeNothing{volume})
	m := locktest.NewMachine("host")
	err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
	if err == nil || !strings.Contains(err.Error(), target+" is still listed 2 times in its folder") {
		t.Fatalf("Update = %v, want an error saying %s is still listed twice", err, target)
	}
	if n := fsys.Calls(faultfs.OpRemove, path.Base(target)); n < 1 || n > 8 {
		t.Errorf("%d removals of %s, want at least one and a bound", n, target)
	}
	data, _, _ := vfs.ReadFile(volume, target, 0)
	if string(data) != string(olderCopy) {
		t.Errorf("%s holds %q, want %q: nothing committed", target, data, olderCopy)
	}
}

// A commit over a name listed once lists nothing more than the acquire's
// sweep does: the defence costs nothing where no power cut doubled a name.
func TestACommitOverANameListedOnceListsTheFolderOnce(t *testing.T) {
	volume := crashfs.New(crashfs.Options{ExFAT: true})
	if err := volume.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	writeSynced(t, volume, target, olderCopy)
	fsys := faultfs.New(volume)
	m := locktest.NewMachine("host")
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
		t.Fatal(err)
	}
	if n := fsys.Calls(faultfs.OpReadDir, "d"); n != 1 {
		t.Errorf("the update listed the folder %d times, want once (the sweep's)", n)
	}
	var recs []string
	data, _, _ := vfs.ReadFile(volume, target, 0)
	if err := json.Unmarshal(data, &recs); err != nil || !slices.Equal(recs, []string{"r1", "mine"}) {
		t.Errorf("%s holds %q, want r1 and mine", target, data)
	}
}
