package lockspec_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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
	return vfs.CountNamed(entries, path.Base(name))
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

// An update of a name its folder lists twice settles it at the acquire,
// keeping the copy a lookup finds (the one readers were shown), and reads
// that copy: its commit is then the one copy, on the disk too, and the
// observer is told. Without the settle the commit's rename replaces one
// entry and a lookup finds the other copy, which holds none of the commit.
func TestUpdateOverADoubledNameLeavesOneCopy(t *testing.T) {
	copies := map[string][]byte{"older": olderCopy, "newer": newerCopy}
	for found, fsys := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			kept := copies[found]
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			var told []string
			lockspec.SetOnDoubled(&opts, func(name string, removed int) {
				told = append(told, name, strings.Repeat("x", removed))
			})
			if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts); err != nil {
				t.Fatal(err)
			}
			want, _ := appendRecord("mine")(kept, true)
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

// An extra entry that cannot be removed stops the hold at its acquire:
// nothing is read or committed (both copies stay, no temp file, no lock is
// left) and the error is the removal's.
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
// hold after four of them: the update commits nothing of its own, and no
// record of either copy goes.
func TestADoubledNameThatStaysDoubledCommitsNothing(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(removeNothing{volume})
	m := locktest.NewMachine("host")
	err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
	if err == nil || !strings.Contains(err.Error(), target+" is still listed 2 times in its folder") {
		t.Fatalf("Update = %v, want an error saying %s is still listed twice", err, target)
	}
	if n := fsys.Calls(faultfs.OpRemove, path.Base(target)); n != 4 {
		t.Errorf("%d removals of %s, want 4, the bound", n, target)
	}
	var copies []string
	entries, _ := volume.ReadDir("d")
	for _, de := range entries {
		copies = append(copies, de.Name())
	}
	data, _, _ := vfs.ReadFile(volume, target, 0)
	if !slices.Equal(copies, []string{"log.json", "log.json"}) || strings.Contains(string(data), "mine") {
		t.Errorf("the folder holds %q, %s %q; want only the two entries, neither with the update's record", copies, target, data)
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

// The acquire settles a doubled guarded file before anything of the hold
// reads it, keeping the copy a lookup finds: once Acquire returns, the
// folder lists the file once, holding that copy, on the disk too (every
// state of a cut right after), so a read of this hold (a board repair
// reporting the dispatches it read) can never see the other copy come
// back.
func TestAcquireSettlesADoubledNameBeforeAnyRead(t *testing.T) {
	for found, fsys := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			told := 0
			lockspec.SetOnDoubled(&opts, func(name string, removed int) {
				if name == target {
					told += removed
				}
			})
			h, err := lockspec.Acquire(context.Background(), fsys, target, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Release()
			wantOneCopy(t, fsys, target, map[string][]byte{"older": olderCopy, "newer": newerCopy}[found])
			if told != 1 {
				t.Errorf("the observer was told of %d removed entries, want 1", told)
			}
		})
	}
}

// A settle whose fence refuses (the lock taken from under the new hold)
// removes nothing: Acquire fails with ErrLockLost, both entries stay, no
// temp file is left.
func TestASettleWhoseFenceRefusesRemovesNothing(t *testing.T) {
	for found, fsys := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			lockspec.SetOnStep(&opts, func(s lockspec.Step) {
				if s == lockspec.StepAcquirePublished {
					if err := fsys.Rename(lockP, "d/taken"); err != nil {
						t.Error(err)
					}
				}
			})
			_, err := lockspec.Acquire(context.Background(), fsys, target, opts)
			if !errors.Is(err, lockspec.ErrLockLost) {
				t.Errorf("Acquire = %v, want ErrLockLost", err)
			}
			if n := listed(t, fsys, target); n != 2 {
				t.Errorf("%s is listed %d times, want 2: a hold whose lock was lost removed an entry", target, n)
			}
			if entries, _ := fsys.ReadDir("d"); len(entries) != 3 {
				t.Errorf("the folder holds %d names, want the two entries and the lock moved away", len(entries))
			}
		})
	}
}

// A listing that fails tells nothing: the sweep's or WriteFenced's failing
// once, the hold lists again and settles; failing twice, the hold reads
// and writes nothing and says the folder cannot be listed.
func TestAListingThatFailsIsTakenAsMaybeDoubled(t *testing.T) {
	const board = "d/b/board.json"
	for _, tc := range []struct {
		name, file string
		fails      int
		ok         bool
	}{
		{"the sweep's, once", target, 1, true},
		{"the sweep's, twice", target, 2, false},
		{"WriteFenced's, once", board, 1, true},
		{"WriteFenced's, twice", board, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			volume := doubledVolumes(t, tc.file)["older"]
			fsys := faultfs.New(volume)
			fsys.Fail(faultfs.Rule{Op: faultfs.OpReadDir, Match: path.Dir(tc.file), Err: syscall.EIO, Times: tc.fails})
			m := locktest.NewMachine("host")
			var err error
			if tc.file == target {
				err = lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
			} else {
				var h *lockspec.Hold
				if h, err = lockspec.Acquire(context.Background(), fsys, target, fast(m.Spawn())); err != nil {
					t.Fatal(err)
				}
				err = h.WriteFenced(board, []byte(`["mine"]`))
				h.Release()
			}
			n := listed(t, volume, tc.file)
			switch {
			case tc.ok && (err != nil || n != 1):
				t.Errorf("write = %v, %s listed %d times; want success and once", err, tc.file, n)
			case !tc.ok && (!errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "cannot be listed") || n != 2):
				t.Errorf("write = %v, %s listed %d times; want the listing's EIO and both entries kept", err, tc.file, n)
			}
			data, _, _ := vfs.ReadFile(volume, tc.file, 0)
			if !tc.ok && string(data) != string(olderCopy) {
				t.Errorf("%s holds %q after a write that failed, want %q", tc.file, data, olderCopy)
			}
		})
	}
}

// A name listed three times (a cut inside a commit over a name already
// listed twice, by a writer that does not look) loses both extra entries,
// and the observer is told two went.
func TestAThirdEntryGoesToo(t *testing.T) {
	fsys := tripled(t)
	m := locktest.NewMachine("host")
	opts := fast(m.Spawn())
	var told []int
	lockspec.SetOnDoubled(&opts, func(_ string, removed int) { told = append(told, removed) })
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts); err != nil {
		t.Fatal(err)
	}
	if n := listed(t, fsys, target); n != 1 || !slices.Equal(told, []int{2}) {
		t.Errorf("%s listed %d times, the observer told %v; want once, and told of 2", target, n, told)
	}
}

// tripled is a next boot whose folder lists target three times and holds
// nothing else: on a volume listing it twice, a commit over it renames a
// synced temp file over the name, cut after its new entry and the temp
// name's removal landed and before the replaced entry's removal.
func tripled(t *testing.T) *crashfs.FS {
	t.Helper()
	fsys := doubledVolumes(t, target)["older"]
	writeSynced(t, fsys, target+".tmp", []byte(`["r1","r2","r3"]`))
	if err := fsys.Rename(target+".tmp", target); err != nil {
		t.Fatal(err)
	}
	cut, err := fsys.CutAt(fsys.Ops())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range cut.States(nil, 0) {
		v := st.FS()
		if entries, _ := v.ReadDir("d"); len(entries) == 3 && listed(t, v, target) == 3 {
			return v // the temp file's own entry gone
		}
	}
	t.Fatal("no state of the cut lists the name three times and nothing else")
	return nil
}

// A hold that found the name listed twice, but whose folder lists it once
// by the time it settles (another writer settled it meanwhile), removes
// nothing and tells the observer nothing.
func TestNoRemovalIsNotTold(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(volume)
	first := true
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpReadDir && ev.Name == "d" && first {
			first = false
			return volume.Remove(target) // another writer's settle, after this sweep's listing
		}
		return nil
	})
	m := locktest.NewMachine("host")
	opts := fast(m.Spawn())
	told := 0
	lockspec.SetOnDoubled(&opts, func(string, int) { told++ })
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts); err != nil {
		t.Fatal(err)
	}
	if told != 0 || fsys.Calls(faultfs.OpRemove, path.Base(target)) != 0 {
		t.Errorf("told %d times, %d removals; want none", told, fsys.Calls(faultfs.OpRemove, path.Base(target)))
	}
	if n := fsys.Calls(faultfs.OpRename, path.Base(target)); n != 1 {
		t.Errorf("%d renames onto %s, want 1 (the update's commit; no settle's)", n, target)
	}
	if n := listed(t, volume, target); n != 1 {
		t.Errorf("%s listed %d times, want once", target, n)
	}
}

// An Update whose hold loses its lock at the settle's fence takes a fresh
// hold, as after a lost commit, and goes through.
func TestUpdateRetriesALockLostAtTheSettle(t *testing.T) {
	for found, fsys := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			m := locktest.NewMachine("host")
			opts := fast(m.Spawn())
			taken := false
			lockspec.SetOnStep(&opts, func(s lockspec.Step) {
				if s == lockspec.StepAcquirePublished && !taken {
					taken = true
					if err := fsys.Rename(lockP, "d/taken"); err != nil {
						t.Error(err)
					}
				}
			})
			if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts); err != nil {
				t.Fatalf("Update = %v; want a fresh hold after the lock lost at the settle, and success", err)
			}
			if n := listed(t, fsys, target); !taken || n != 1 {
				t.Errorf("taken %v, listed %d times; want the lock taken once and the name listed once", taken, n)
			}
		})
	}
}

// A board write whose fence refuses removes none of the board's entries.
func TestAWriteFencedWhoseFenceRefusesRemovesNothing(t *testing.T) {
	const board = "d/b/board.json"
	for found, fsys := range doubledVolumes(t, board) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			m := locktest.NewMachine("host")
			h, err := lockspec.Acquire(context.Background(), fsys, target, fast(m.Spawn()))
			if err != nil {
				t.Fatal(err)
			}
			defer h.Release()
			if err := fsys.Rename(lockP, "d/taken"); err != nil {
				t.Fatal(err)
			}
			if err := h.WriteFenced(board, []byte(`["mine"]`)); !errors.Is(err, lockspec.ErrLockLost) {
				t.Fatalf("WriteFenced = %v, want ErrLockLost", err)
			}
			if n := listed(t, fsys, board); n != 2 {
				t.Errorf("%s is listed %d times, want 2: a write whose fence refused removed an entry", board, n)
			}
		})
	}
}

// Where link() works, no folder lists a name twice: a folder that cannot
// be listed (no read permission: the lock needs only write and search)
// costs the sweep, and is no error of the hold.
func TestAFolderThatCannotBeListedIsNoErrorWithHardLinks(t *testing.T) {
	volume := crashfs.New(crashfs.Options{})
	if err := volume.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := faultfs.New(volume)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpReadDir, Match: "d", Err: syscall.EACCES})
	m := locktest.NewMachine("host")
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
		t.Errorf("Update = %v; want success: a folder that cannot be listed cannot be doubled where link() works", err)
	}
}

// kernelDentries models what Linux's exFAT driver's dentry cache does
// after an unlink (fs/exfat/namei.c: exfat_unlink sets the now negative
// dentry's version to the folder's, and exfat_d_revalidate keeps it valid
// for every lookup but a create's and a rename target's until the folder
// changes): once one entry of a doubled name is removed, opening or
// stat-ing the name finds nothing, though the folder lists the other,
// until something is made, removed or renamed in that folder. crashfs and
// exfat-fuse do not cache a lookup that found nothing.
type kernelDentries struct {
	*crashfs.FS
	negative map[string]bool // names whose negative dentry is valid
}

func (k *kernelDentries) changed(dir string) {
	for name := range k.negative {
		if path.Dir(name) == dir {
			delete(k.negative, name)
		}
	}
}

func (k *kernelDentries) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	if flag&os.O_CREATE == 0 && k.negative[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOENT}
	}
	f, err := k.FS.OpenFile(name, flag, perm)
	if err == nil && flag&os.O_CREATE != 0 {
		k.changed(path.Dir(name))
	}
	return f, err
}

func (k *kernelDentries) Stat(name string) (fs.FileInfo, error) {
	if k.negative[name] {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: syscall.ENOENT}
	}
	return k.FS.Stat(name)
}

func (k *kernelDentries) Lstat(name string) (fs.FileInfo, error) {
	if k.negative[name] {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: syscall.ENOENT}
	}
	return k.FS.Lstat(name)
}

func (k *kernelDentries) Mkdir(name string, perm fs.FileMode) error {
	err := k.FS.Mkdir(name, perm)
	if err == nil {
		k.changed(path.Dir(name))
	}
	return err
}

func (k *kernelDentries) Rename(oldname, newname string) error {
	if k.negative[oldname] {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.ENOENT}
	}
	err := k.FS.Rename(oldname, newname)
	if err == nil {
		k.changed(path.Dir(oldname))
		k.changed(path.Dir(newname))
	}
	return err
}

func (k *kernelDentries) RenameNoReplace(oldname, newname string) error {
	err := k.FS.RenameNoReplace(oldname, newname)
	if err == nil {
		k.changed(path.Dir(oldname))
		k.changed(path.Dir(newname))
	}
	return err
}

func (k *kernelDentries) Remove(name string) error {
	if k.negative[name] {
		return &fs.PathError{Op: "remove", Path: name, Err: syscall.ENOENT}
	}
	err := k.FS.Remove(name)
	if err == nil {
		k.changed(path.Dir(name))
		k.negative[name] = true
	}
	return err
}

// Under the kernel driver's dentry cache the settle still keeps the copy a
// lookup found: it read that copy before its removal, and its rename over
// the name looks the target up again. A settle that only removed the
// extra entry and let the hold read would find no file, and the update
// would replace every record with its own.
func TestTheSettleKeepsItsCopyUnderTheKernelsDentryCache(t *testing.T) {
	for found, volume := range doubledVolumes(t, target) {
		t.Run("lookups find the "+found+" copy", func(t *testing.T) {
			fsys := &kernelDentries{FS: volume, negative: map[string]bool{}}
			m := locktest.NewMachine("host")
			if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
				t.Fatal(err)
			}
			want, _ := appendRecord("mine")(map[string][]byte{"older": olderCopy, "newer": newerCopy}[found], true)
			wantOneCopy(t, volume, target, want)
		})
	}
}

// Two holders at once (the lock forced from a live holder while it
// settles: the window every fence has) can each remove an entry on one
// listing, the name then listed nowhere; the settle's rename puts the copy
// back, so the file is never gone: the rightful holder reads a whole copy.
func TestTwoSettlesAtOnceNeverLeaveTheNameMissing(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(volume)
	m := locktest.NewMachine("host")
	lists := 0
	var other *lockspec.Hold
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op != faultfs.OpReadDir || ev.Name != "d" {
			return nil
		}
		if lists++; lists == 3 { // the listing between this hold's fence and its first removal
			if err := volume.Rename(lockP, "d/forced"); err != nil { // pa dispatch unlock --force
				t.Error(err)
			}
			h, err := lockspec.Acquire(context.Background(), volume, target, fast(m.Spawn()))
			if err != nil {
				t.Error(err)
			}
			other = h // its settle is done: the name listed once
		}
		return nil
	})
	_ = lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
	if other == nil {
		t.Fatal("the second holder did not acquire")
	}
	defer other.Release()
	data, _, err := vfs.ReadFile(volume, target, 0)
	var recs []string
	if err == nil {
		err = json.Unmarshal(data, &recs)
	}
	if err != nil || !slices.Contains(recs, "r1") || listed(t, volume, target) != 1 {
		t.Fatalf("the rightful holder reads %s as %q (%v), listed %d times; want a whole copy (r1), listed once", target, data, err, listed(t, volume, target))
	}
}

// Under the kernel's dentry cache, a name listed three times: after the
// first removal a lookup finds nothing (the negative dentry), though the
// folder lists the name twice; the settle changes the folder and looks
// again, so both extra entries go and the copy a lookup found is kept.
func TestAThirdEntryGoesUnderTheKernelsDentryCache(t *testing.T) {
	volume := tripled(t)
	found, _, err := vfs.ReadFile(volume, target, 0)
	if err != nil {
		t.Fatal(err)
	}
	fsys := &kernelDentries{FS: volume, negative: map[string]bool{}}
	m := locktest.NewMachine("host")
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
		t.Fatal(err)
	}
	want, _ := appendRecord("mine")(found, true)
	wantOneCopy(t, volume, target, want)
	if entries, _ := volume.ReadDir("d"); len(entries) != 1 {
		t.Errorf("the folder holds %d names, want only %s (no temp file of the folder's change left)", len(entries), target)
	}
}

// A settle whose read of the copy a lookup finds fails removes nothing and
// commits nothing: the acquire fails, both entries stay.
func TestASettleWhoseReadFailsCommitsNothing(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(volume)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: path.Base(target), Err: syscall.EIO, Times: 1})
	m := locktest.NewMachine("host")
	err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
	if !errors.Is(err, syscall.EIO) {
		t.Errorf("Update = %v, want the read's EIO", err)
	}
	if entries, _ := volume.ReadDir("d"); listed(t, volume, target) != 2 || len(entries) != 2 {
		t.Errorf("%s listed %d times among %d names; want both entries and nothing else", target, listed(t, volume, target), len(entries))
	}
}

// A settle whose folder sync fails fails the acquire with the sync's
// error, never a *NotSyncedError (which says the caller's commit landed):
// the update's function never ran.
func TestASettleWhoseSyncFailsIsNoCommitOfTheCallers(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(volume)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: "d", Err: syscall.EIO})
	m := locktest.NewMachine("host")
	ran := false
	err := lockspec.Update(context.Background(), fsys, target, func(cur []byte, exists bool) ([]byte, error) {
		ran = true
		return appendRecord("mine")(cur, exists)
	}, fast(m.Spawn()))
	var ns *lockspec.NotSyncedError
	if !errors.Is(err, syscall.EIO) || errors.As(err, &ns) || ran {
		t.Errorf("Update = %v (a *NotSyncedError: %v), the function ran: %v; want the sync's EIO, no *NotSyncedError, and no run", err, errors.As(err, &ns), ran)
	}
}

// A lock lost at every settle ends the Update by its deadline, with an
// error: the retry after a lost lock is bounded by the timeout.
func TestALockLostAtEverySettleEnds(t *testing.T) {
	fsys := doubledVolumes(t, target)["older"]
	m := locktest.NewMachine("host")
	opts := fast(m.Spawn())
	lost := 0
	lockspec.SetOnStep(&opts, func(s lockspec.Step) {
		if s == lockspec.StepAcquirePublished {
			lost++
			if err := fsys.Rename(lockP, fmt.Sprintf("d/taken-%d", lost)); err != nil {
				t.Error(err)
			}
		}
	})
	err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts)
	if !errors.Is(err, lockspec.ErrLockLost) || lost < 2 {
		t.Errorf("Update = %v after %d lost locks; want ErrLockLost after more than one try", err, lost)
	}
	if n := listed(t, fsys, target); n != 2 {
		t.Errorf("%s listed %d times, want 2: no settle removed an entry behind a lost lock", target, n)
	}
}

// A copy a lookup finds that is not a whole file of its kind (the
// Restorer does not take it whole) is never kept over the other: the
// settle removes nothing and the update fails, both entries left.
func TestASettleKeepsNoCopyThatIsNotWhole(t *testing.T) {
	fsys, _, err := crashfs.Doubled(target, []byte(`["r1","r`), newerCopy)
	if err != nil {
		t.Fatal(err)
	}
	m := locktest.NewMachine("host")
	opts := fast(m.Spawn())
	lockspec.SetRestore(&opts, arrayRestorer, nil)
	err = lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), opts)
	if err == nil || !strings.Contains(err.Error(), "is not a whole file") {
		t.Errorf("Update = %v, want the copy found refused as not whole", err)
	}
	if n := listed(t, fsys, target); n != 2 {
		t.Errorf("%s listed %d times, want 2: nothing removed", target, n)
	}
}

// failAfterRemoval makes the first call of op on a name of base match
// (either name, for a rename) that comes after a removal of target fail
// with EIO.
func failAfterRemoval(fsys *faultfs.FS, op faultfs.Op, match string) {
	removed, failed := false, false
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRemove && ev.Name == target && ev.Err == nil {
			removed = true
		}
		return nil
	})
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == op && removed && !failed && (path.Base(ev.Name) == match || path.Base(ev.NewName) == match) {
			failed = true
			return syscall.EIO
		}
		return nil
	})
}

// Once the settle has removed an entry, its keep file (the copy a lookup
// found, what readers were shown) is never dropped: a listing that fails
// after the removal still lets the rename put that copy back under the
// name (the hold fails); a rename that fails leaves the keep file, which a
// restore would take whole.
func TestASettleThatFailsAfterARemovalKeepsTheCopyFound(t *testing.T) {
	copies := map[string][]byte{"older": olderCopy, "newer": newerCopy}
	for found, volume := range doubledVolumes(t, target) {
		t.Run("the listing fails, lookups find the "+found+" copy", func(t *testing.T) {
			fsys := faultfs.New(volume)
			failAfterRemoval(fsys, faultfs.OpReadDir, "d")
			m := locktest.NewMachine("host")
			err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn()))
			data, _, _ := vfs.ReadFile(volume, target, 0)
			if !errors.Is(err, syscall.EIO) || string(data) != string(copies[found]) {
				t.Errorf("Update = %v; %s holds %q; want the listing's EIO and the copy found, %q, put back", err, target, data, copies[found])
			}
		})
	}
	for found, volume := range doubledVolumes(t, target) {
		t.Run("the rename fails, lookups find the "+found+" copy", func(t *testing.T) {
			fsys := faultfs.New(volume)
			failAfterRemoval(fsys, faultfs.OpRename, path.Base(target))
			m := locktest.NewMachine("host")
			if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); !errors.Is(err, syscall.EIO) {
				t.Errorf("Update = %v, want the rename's EIO", err)
			}
			var keep []byte
			entries, _ := volume.ReadDir("d")
			for _, de := range entries {
				if strings.HasPrefix(de.Name(), "log.json.keep-") {
					keep, _, _ = vfs.ReadFile(volume, "d/"+de.Name(), 0)
				}
			}
			if string(keep) != string(copies[found]) {
				t.Errorf("the keep file holds %q, want the copy found, %q, left for a restore", keep, copies[found])
			}
		})
	}
}

// The settle commits through a keep file (name.keep-...), never a temp
// file a restore would read as a commit's (dropping its last record).
func TestASettleCommitsThroughAKeepFile(t *testing.T) {
	volume := doubledVolumes(t, target)["older"]
	fsys := faultfs.New(volume)
	var made []string
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename && ev.Err == nil && ev.NewName == target {
			made = append(made, path.Base(ev.Name))
		}
		return nil
	})
	m := locktest.NewMachine("host")
	if err := lockspec.Update(context.Background(), fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
		t.Fatal(err)
	}
	if len(made) != 2 || !strings.HasPrefix(made[0], "log.json.keep-") || !strings.HasPrefix(made[1], "log.json.tmp-") {
		t.Errorf("renamed onto %s: %q; want the settle's keep file, then the update's temp file", target, made)
	}
}
