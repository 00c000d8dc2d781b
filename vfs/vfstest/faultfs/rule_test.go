package faultfs_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestFailFirstN(t *testing.T) {
	fsys, inner := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Match: "d*", Err: syscall.EIO, Times: 2})
	for i, wantFail := range []bool{true, true, false, false} {
		name := fmt.Sprintf("d%d", i)
		err := fsys.Mkdir(name, 0o755)
		if !wantFail {
			if err != nil {
				t.Errorf("Mkdir(%s), after the rule's 2 failures: %v, want success", name, err)
			}
			continue
		}
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Op != "mkdir" || pe.Path != name || !errors.Is(err, syscall.EIO) {
			t.Errorf("Mkdir(%s) = %#v, want &fs.PathError{Op: mkdir, Path: %s, Err: EIO}", name, err, name)
		}
		if exists(t, inner, name) {
			t.Errorf("a failed Mkdir(%s) created it", name)
		}
	}
	if err := fsys.Mkdir("other", 0o755); err != nil {
		t.Errorf("Mkdir(other), which the rule does not match: %v", err)
	}
}

func TestFailAlwaysUntilClear(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "f", "x")
	fsys.Fail(faultfs.Rule{Op: faultfs.OpStat, Err: syscall.EACCES})
	for range 5 {
		if _, err := fsys.Stat("f"); !errors.Is(err, syscall.EACCES) {
			t.Fatalf("Stat(f) under a Times 0 rule: %v, want EACCES", err)
		}
	}
	fsys.Clear()
	if _, err := fsys.Stat("f"); err != nil {
		t.Errorf("Stat(f) after Clear: %v", err)
	}
}

func TestNilErrIsEIO(t *testing.T) {
	fsys, _ := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpReadDir})
	if _, err := fsys.ReadDir("."); !errors.Is(err, syscall.EIO) {
		t.Errorf("ReadDir under a rule with no Err: %v, want EIO", err)
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"", "agents/a/spawn-log.json", true},
		{"spawn-log.json", "agents/a/spawn-log.json", true},
		{"*.json", "agents/a/spawn-log.json", true},
		{"agents/*/spawn-log.json", "agents/a/spawn-log.json", true},
		{"agents/a/spawn-log.json", "agents/a/spawn-log.json", true},
		{"agents/*", "agents/a/spawn-log.json", false},
		{"*.lock", "agents/a/spawn-log.json", false},
		{"spawn-log.json.*", "agents/a/spawn-log.json.tmp-1234", true},
		{"a", "agents/a/spawn-log.json", false},
	}
	for _, tt := range tests {
		fsys, _ := newFS(t)
		fsys.Fail(faultfs.Rule{Op: faultfs.OpStat, Match: tt.pattern})
		_, err := fsys.Stat(tt.name)
		// The name does not exist: a miss reports ENOENT, a match EIO.
		if got := errors.Is(err, syscall.EIO); got != tt.want {
			t.Errorf("rule %q on Stat(%q): failed by the rule = %v, want %v (err %v)", tt.pattern, tt.name, got, tt.want, err)
		}
	}
}

func TestMatchEitherName(t *testing.T) {
	for _, op := range []faultfs.Op{faultfs.OpLink, faultfs.OpRename} {
		for _, pattern := range []string{"old", "new", "dir/new", ""} {
			fsys, _ := newFS(t)
			writeFile(t, fsys, "old", "x")
			if err := fsys.Mkdir("dir", 0o755); err != nil {
				t.Fatal(err)
			}
			fsys.Fail(faultfs.Rule{Op: op, Match: pattern, Err: syscall.EXDEV})
			var err error
			if op == faultfs.OpLink {
				err = fsys.Link("old", "dir/new")
			} else {
				err = fsys.Rename("old", "dir/new")
			}
			var le *os.LinkError
			if !errors.As(err, &le) || le.Op != op.String() || le.Old != "old" || le.New != "dir/new" || !errors.Is(err, syscall.EXDEV) {
				t.Errorf("%v(old, dir/new) with a rule on %q = %#v, want &os.LinkError{Op: %v, Old: old, New: dir/new, Err: EXDEV}",
					op, pattern, err, op)
			}
		}
	}
}

func TestRuleOrder(t *testing.T) {
	fsys, _ := newFS(t)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Match: "a", Err: syscall.EPERM, Times: 1})
	fsys.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Err: syscall.ENOSPC})
	if err := fsys.Mkdir("a", 0o755); !errors.Is(err, syscall.EPERM) {
		t.Errorf("first Mkdir(a): %v, want EPERM from the first rule", err)
	}
	if err := fsys.Mkdir("a", 0o755); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("second Mkdir(a): %v, want ENOSPC once the first rule is used up", err)
	}
}

func TestErrorTypesPreserved(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "a", "x")

	pathErr := &fs.PathError{Op: "custom", Path: "elsewhere", Err: syscall.EROFS}
	fsys.Fail(faultfs.Rule{Op: faultfs.OpRemove, Err: pathErr, Times: 1})
	if err := fsys.Remove("a"); err != error(pathErr) {
		t.Errorf("Remove with a *fs.PathError rule returned %#v, want that very error", err)
	}

	linkErr := &os.LinkError{Op: "link", Old: "x", New: "y", Err: syscall.EPERM}
	fsys.Fail(faultfs.Rule{Op: faultfs.OpLink, Err: linkErr, Times: 1})
	err := fsys.Link("a", "b")
	if err != error(linkErr) {
		t.Errorf("Link with an *os.LinkError rule returned %#v, want that very error", err)
	}
	if !vfs.NoHardLinks(err) {
		t.Errorf("NoHardLinks(%v) = false for an injected EPERM", err)
	}

	fsys.Fail(faultfs.Rule{Op: faultfs.OpLink, Err: syscall.EEXIST, Times: 1})
	if err := fsys.Link("a", "b"); !errors.Is(err, fs.ErrExist) || vfs.NoHardLinks(err) {
		t.Errorf("Link with an injected EEXIST = %v, want fs.ErrExist, not no-hard-links", err)
	}
	if exists(t, fsys, "b") {
		t.Errorf("an injected Link failure made b")
	}

	wrapped := fmt.Errorf("disk on fire: %w", syscall.EIO)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "a", Err: wrapped, Times: 1})
	_, err = fsys.OpenFile("a", os.O_RDONLY, 0)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != "a" || pe.Err != wrapped || !errors.Is(err, syscall.EIO) {
		t.Errorf("OpenFile with a plain error rule = %#v, want &fs.PathError{Op: open, Path: a, Err: the rule's}", err)
	}
}

func TestFailPanicsOnMistakes(t *testing.T) {
	fsys, _ := newFS(t)
	for _, r := range []faultfs.Rule{
		{Op: 0},
		{Op: faultfs.OpClose + 1},
		{Op: faultfs.OpStat, Match: "["},
		{Op: faultfs.OpStat, Times: -1},
		{Op: faultfs.OpWrite, Drop: true},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Fail(%+v) did not panic", r)
				}
			}()
			fsys.Fail(r)
		}()
	}
}

// TestDropReportsSuccessWithoutSyncing checks a Drop rule: the sync it
// matches returns nil and never reaches the wrapped file system (counted
// by a second faultfs under it), its hooks still run, and a sync it does
// not match goes through.
func TestDropReportsSuccessWithoutSyncing(t *testing.T) {
	under, _ := newFS(t)
	fsys := faultfs.New(under)
	writeFile(t, fsys, "a.tmp-1", "x")
	writeFile(t, fsys, "b.json", "y")
	fsys.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: "*.tmp-*", Drop: true, Times: 1})
	var after []error
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpSync {
			after = append(after, ev.Err)
		}
		return nil
	})
	syncFile := func(name string) error {
		f, err := fsys.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return f.Sync()
	}
	if err := syncFile("a.tmp-1"); err != nil {
		t.Errorf("a dropped Sync = %v, want nil", err)
	}
	if got := under.Calls(faultfs.OpSync, ""); got != 0 {
		t.Errorf("a dropped Sync reached the wrapped FS %d times, want 0", got)
	}
	if err := syncFile("b.json"); err != nil {
		t.Errorf("Sync of a name the rule does not match = %v", err)
	}
	if err := syncFile("a.tmp-1"); err != nil {
		t.Errorf("Sync after the rule's one drop = %v", err)
	}
	if got := under.Calls(faultfs.OpSync, ""); got != 2 {
		t.Errorf("the wrapped FS saw %d syncs, want 2 (the ones not dropped)", got)
	}
	if len(after) != 3 || after[0] != nil {
		t.Errorf("After hooks saw %v, want three syncs, the dropped one nil", after)
	}
}

func TestOpString(t *testing.T) {
	want := map[faultfs.Op]string{
		faultfs.OpOpenFile: "open", faultfs.OpStat: "stat", faultfs.OpReadDir: "readdir",
		faultfs.OpMkdir: "mkdir", faultfs.OpLink: "link", faultfs.OpRename: "rename",
		faultfs.OpRemove: "remove", faultfs.OpChtimes: "chtimes", faultfs.OpRead: "read",
		faultfs.OpWrite: "write", faultfs.OpSync: "sync", faultfs.OpClose: "close",
		faultfs.OpWatch: "watch", faultfs.OpWait: "wait", faultfs.OpOpenRoot: "openroot",
		0: "Op(0)", 99: "Op(99)",
	}
	for op, s := range want {
		if got := op.String(); got != s {
			t.Errorf("Op(%d).String() = %q, want %q", int(op), got, s)
		}
	}
}

func TestCalls(t *testing.T) {
	fsys, _ := newFS(t)
	writeFile(t, fsys, "d.json", "x")
	fsys.Fail(faultfs.Rule{Op: faultfs.OpStat, Match: "b"})
	for _, name := range []string{"d.json", "d.json", "b", "c/d.json"} {
		fsys.Stat(name)
	}
	fsys.Rename("d.json", "e.json")
	tests := []struct {
		op    faultfs.Op
		match string
		want  int
	}{
		{faultfs.OpStat, "", 4},
		{faultfs.OpStat, "d.json", 3},
		{faultfs.OpStat, "c/*", 1},
		{faultfs.OpStat, "b", 1},
		{faultfs.OpRename, "e.json", 1},
		{faultfs.OpRename, "d.json", 1},
		{faultfs.OpMkdir, "", 0},
		{faultfs.OpOpenFile, "d.json", 1},
		{faultfs.OpWrite, "d.json", 1},
		{faultfs.OpClose, "", 1},
	}
	for _, tt := range tests {
		if got := fsys.Calls(tt.op, tt.match); got != tt.want {
			t.Errorf("Calls(%v, %q) = %d, want %d", tt.op, tt.match, got, tt.want)
		}
	}
}
