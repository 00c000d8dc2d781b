package crashfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// put creates name with data, synced or not; the folder is not synced.
func put(t *testing.T, fsys vfs.FS, name, data string, sync bool) {
	t.Helper()
	if err := vfs.WriteFileExclusive(fsys, name, []byte(data), 0o644, sync); err != nil {
		t.Fatal(err)
	}
}

// syncDir syncs the folder dir.
func syncDir(t *testing.T, fsys vfs.FS, dir string) {
	t.Helper()
	if err := vfs.SyncDir(fsys, dir); err != nil {
		t.Fatal(err)
	}
}

// appendTo opens name, writes data at its end, optionally syncs, closes.
func appendTo(t *testing.T, fsys vfs.FS, name, data string, sync bool) {
	t.Helper()
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// states returns the states of the cut after the last op: the extremes,
// and 200 samples from a fixed seed.
func states(t *testing.T, fsys *crashfs.FS) []*crashfs.State {
	t.Helper()
	cut, err := fsys.CutAt(fsys.Ops())
	if err != nil {
		t.Fatal(err)
	}
	return cut.States(rand.New(rand.NewPCG(18, 18)), 200)
}

// show renders what a volume holds at names, "name=content" or "name=-"
// when missing, space-separated: a folder shows its listing, as "d=[a b]".
func show(t *testing.T, fsys vfs.FS, names ...string) string {
	t.Helper()
	var out []string
	for _, name := range names {
		fi, err := fsys.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, name+"=-")
		case err != nil:
			t.Fatal(err)
		case fi.IsDir():
			ents, err := fsys.ReadDir(name)
			if err != nil {
				t.Fatal(err)
			}
			var ls []string
			for _, e := range ents {
				ls = append(ls, e.Name())
			}
			out = append(out, name+"=["+strings.Join(ls, " ")+"]")
		default:
			data, _, err := vfs.ReadFile(fsys, name, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, name+"="+string(data))
		}
	}
	return strings.Join(out, " ")
}

// listing renders the folder dir as "[name:size ...]" in ReadDir's order:
// a name held twice shows twice, its entries in their order.
func listing(t *testing.T, fsys vfs.FS, dir string) string {
	t.Helper()
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ls []string
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, fmt.Sprintf("%s:%d", e.Name(), fi.Size()))
	}
	return "[" + strings.Join(ls, " ") + "]"
}

// outcomes returns render of every state of the cut after the last op,
// sorted and each once.
func outcomes(t *testing.T, fsys *crashfs.FS, render func(vfs.FS) string) []string {
	t.Helper()
	var out []string
	for _, st := range states(t, fsys) {
		s := render(st.FS())
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// wantOutcomes fails unless show of names in the states of the cut after
// the last op are exactly want (any order).
func wantOutcomes(t *testing.T, fsys *crashfs.FS, want []string, names ...string) {
	t.Helper()
	wantRendered(t, fsys, want, func(next vfs.FS) string { return show(t, next, names...) })
}

// wantRendered fails unless render of the states of the cut after the
// last op are exactly want (any order).
func wantRendered(t *testing.T, fsys *crashfs.FS, want []string, render func(vfs.FS) string) {
	t.Helper()
	want = slices.Clone(want)
	slices.Sort(want)
	if got := outcomes(t, fsys, render); !slices.Equal(got, want) {
		t.Errorf("a cut after op %d (%s) leaves\n  %s\nwant\n  %s", fsys.Ops(), fsys.Op(fsys.Ops()),
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// doubled returns the next boot after a cut inside an exFAT rename of
// dir/tmp ("newer") over dir/log ("old") that landed the new entry and the
// old entry's removal, not the replaced entry's: dir holds log twice,
// "newer" first (newFirst) or after "old". dir is "." or a folder made for
// it.
func doubled(t *testing.T, dir string, newFirst bool) *crashfs.FS {
	t.Helper()
	fsys := crashfs.New(crashfs.Options{ExFAT: true})
	if dir != "." {
		if err := fsys.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		syncDir(t, fsys, ".")
	}
	put(t, fsys, path.Join(dir, "log"), "old", true)
	put(t, fsys, path.Join(dir, "tmp"), "newer", true)
	syncDir(t, fsys, dir)
	if err := fsys.Rename(path.Join(dir, "tmp"), path.Join(dir, "log")); err != nil {
		t.Fatal(err)
	}
	want := "[log:3 log:5]"
	if newFirst {
		want = "[log:5 log:3]"
	}
	for _, st := range states(t, fsys) {
		if next := st.FS(); listing(t, next, dir) == want {
			return next
		}
	}
	t.Fatalf("no state of a cut inside %s lists %s in %s", fsys.Op(fsys.Ops()), want, dir)
	return nil
}

// order returns the contents of doubled's two entries of log, the one
// lookups find first.
func order(newFirst bool) (first, other string) {
	if newFirst {
		return "newer", "old"
	}
	return "old", "newer"
}

// rootAndLog renders the root's listing and log's content, as
// "[log:3 log:5] log=old".
func rootAndLog(t *testing.T) func(vfs.FS) string {
	return func(fsys vfs.FS) string { return listing(t, fsys, ".") + " " + show(t, fsys, "log") }
}
