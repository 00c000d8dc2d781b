package conformance

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// Config says where and on which class a run proves the rows.
type Config struct {
	// Dir is a folder on the volume under test; every case works in a
	// fresh folder under it, removed at the end. "" means a temp dir.
	Dir string
	// Class is Links, NoLinks or Auto ("" is Auto).
	Class Class
	// Out receives the matrix; nil means os.Stdout.
	Out io.Writer
}

// Run runs every row of the spec's table on cfg.Dir as subtests
// ROW/CLASS/CASE and prints the matrix, one line a row: the id,
// links=STATE, nolinks=STATE and the title; STATE is pass, fail or not-run.
// A row's line is printed as soon as every case of its cells of the
// classes under test has ended; the lines of the rows that did not end
// (not run, or left out by -test.run) follow at the end, in the table's
// order, then a summary line. The run fails when a cell of a class under
// test did not run, unless -test.run or -test.skip selected some cases
// only.
//
// The test binary must call [Main] from its TestMain: the kill and stall
// rows run it again as a child process.
func Run(t *testing.T, cfg Config) {
	t.Helper()
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.Class == "" {
		cfg.Class = Auto
	}
	out := cfg.Out
	if out == nil {
		out = os.Stdout
	}
	v, err := probe(cfg.Dir)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	classes, err := v.classesFor(cfg.Class)
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(cfg.Dir, "pa-conformance-")
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })

	m := newMatrix()
	m.stream(out, classes)
	t.Cleanup(func() { report(t, out, m, v, classes) })
	for _, r := range Rows {
		t.Run(r.ID, func(t *testing.T) {
			for _, cl := range columns {
				if !slices.Contains(classes, cl) {
					continue
				}
				t.Run(string(cl), func(t *testing.T) {
					for _, c := range casesOf(r.ID, cl) {
						t.Run(c.name, func(t *testing.T) {
							t.Cleanup(func() { m.record(r.ID, cl, t.Failed(), t.Skipped()) })
							c.run(t, newSite(t, base, v, cl))
						})
					}
				})
			}
		})
	}
}

// report prints the end of the matrix and fails the run when a cell of a
// class under test did not run.
func report(t *testing.T, out io.Writer, m *matrix, v volume, classes []Class) {
	printEnd(out, m, v, classes)
	missing := m.notRun(classes)
	if len(missing) == 0 {
		return
	}
	if filtered() {
		t.Logf("conformance: %d cells not run (cases selected by -run or -skip): %s", len(missing), strings.Join(missing, " "))
		return
	}
	t.Errorf("conformance: %d cells not run: %s", len(missing), strings.Join(missing, " "))
}

// printEnd prints the lines of the rows not yet printed, then the summary
// line: how many cells of classes pass, of how many, and where.
func printEnd(out io.Writer, m *matrix, v volume, classes []Class) {
	m.printRest(out)
	pass, total := m.counts(classes)
	how := ""
	if !v.hasLinks {
		how = fmt.Sprintf("; the volume refuses link() (%v), so the column links cannot run there", v.linkErr)
	}
	fmt.Fprintf(out, "conformance: %d of %d cells pass (classes %s) in %s%s\n", pass, total, joinClasses(classes), v.dir, how)
}

func joinClasses(cs []Class) string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c))
	}
	return strings.Join(s, ", ")
}

// filtered reports whether -test.run or -test.skip selects some subtests
// only, so that cells not run are expected.
func filtered() bool {
	if f := flag.Lookup("test.run"); f != nil && strings.Contains(f.Value.String(), "/") {
		return true
	}
	f := flag.Lookup("test.skip")
	return f != nil && f.Value.String() != ""
}
