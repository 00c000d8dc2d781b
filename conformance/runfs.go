package conformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
)

// RunFS runs, on file systems made by newFS, every case of the spec's table
// that needs no real process: the cases whose "processes" are goroutines
// of this test (a fake host, locktest.Machine, says which pids are alive),
// so that a custom vfs.FS (an in-memory one) gets the proofs the rows give
// the OS. The cases that kill or stall a real child process, run the pa
// binary or ask about a real pid need [Run] on a folder of the real OS;
// rows with no other case are left out (RowsFS lists the rows RunFS runs).
//
// Each case gets a fresh FS from newFS (called with the case's t). class
// is Links, NoLinks or Auto (""): Auto probes Link once on an FS of its
// own and runs every column when it works (NoLinks and DirPublish through
// nolinkfs), NoLinks and DirPublish when it is refused (vfs.NoHardLinks). Subtests are named
// ROW/CLASS/CASE as in Run; at the end the rows run are logged as Run
// prints them, and the run fails when a cell of those rows did not run
// (unless -test.run or -test.skip selected some cases only).
//
// An FS that passes vfs/vfstest is expected to pass RunFS.
func RunFS(t *testing.T, newFS func(t *testing.T) vfs.FS, class Class) {
	t.Helper()
	if class == "" {
		class = Auto
	}
	v, err := probeFS(newFS(t))
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	classes, err := v.classesFor(class)
	if err != nil {
		t.Fatal(err)
	}
	cases := casesFS()
	m := newMatrixOf(cases)
	t.Cleanup(func() { reportFS(t, m, v, classes) })
	for _, id := range RowsFS() {
		t.Run(id, func(t *testing.T) {
			for _, cl := range columns {
				if !slices.Contains(classes, cl) {
					continue
				}
				t.Run(string(cl), func(t *testing.T) {
					for _, c := range cases {
						if c.row != id || !c.classes.has(cl) {
							continue
						}
						t.Run(c.name, func(t *testing.T) {
							t.Cleanup(func() { m.record(id, cl, t.Failed(), t.Skipped()) })
							c.run(t, newFSSite(t, newFS(t), v.hasLinks, cl))
						})
					}
				})
			}
		})
	}
}

// casesFS are the cases that run on any vfs.FS.
func casesFS() []caseDef {
	var out []caseDef
	for _, c := range registry {
		if c.reach == anyFS {
			out = append(out, c)
		}
	}
	return out
}

// RowsFS returns the ids of the rows [RunFS] runs: those with a case that
// needs no real process, in the table's order.
func RowsFS() []string {
	var ids []string
	for _, r := range Rows {
		for _, c := range registry {
			if c.row == r.ID && c.reach == anyFS {
				ids = append(ids, r.ID)
				break
			}
		}
	}
	return ids
}

// probeFS learns whether Link works on fsys: it creates a file and links
// it. A Link error other than ENOENT and EEXIST is the spec's "no hard
// links" (vfs.NoHardLinks).
func probeFS(fsys vfs.FS) (volume, error) {
	v := volume{dir: fmt.Sprintf("the FS (%T)", fsys)}
	if err := vfs.WriteFileExclusive(fsys, "pa-probe", []byte("probe"), 0o644, false); err != nil {
		return v, fmt.Errorf("conformance: probing %s: %w", v.dir, err)
	}
	err := fsys.Link("pa-probe", "pa-probe-link")
	switch {
	case err == nil:
		v.hasLinks = true
	case vfs.NoHardLinks(err):
		v.linkErr = err
	default:
		return v, fmt.Errorf("conformance: probing Link on %s: %w", v.dir, err)
	}
	return v, nil
}

// reportFS logs the rows RunFS ran as Run prints the matrix, and fails the
// run when a cell of those rows did not run.
func reportFS(t *testing.T, m *matrix, v volume, classes []Class) {
	var b strings.Builder
	rows := RowsFS()
	pass, total := 0, 0
	var missing []string
	for _, r := range Rows {
		if !slices.Contains(rows, r.ID) {
			continue
		}
		b.WriteString(m.line(r))
		for _, c := range classes {
			total++
			switch m.state(r.ID, c) {
			case cellPass:
				pass++
			case cellNotRun:
				missing = append(missing, r.ID+"/"+string(c))
			}
		}
	}
	how := ""
	if !v.hasLinks {
		how = fmt.Sprintf("; Link is refused (%v), so the column links cannot run there", v.linkErr)
	}
	fmt.Fprintf(&b, "conformance: %d of %d cells pass (classes %s, the %d rows that need no real process) on %s%s",
		pass, total, joinClasses(classes), len(rows), v.dir, how)
	t.Log("\n" + b.String())
	if len(missing) == 0 {
		return
	}
	if filtered() {
		t.Logf("conformance: %d cells not run (cases selected by -run or -skip): %s", len(missing), strings.Join(missing, " "))
		return
	}
	t.Errorf("conformance: %d cells not run: %s", len(missing), strings.Join(missing, " "))
}
