package conformance

import (
	"strings"
	"sync"
	"testing"
)

// A row's line is written when the last case of its cells ends, not
// before; the end writes the lines of the other rows, in the table's
// order, then the summary.
func TestMatrixWritesARowWhenItsLastCellEnds(t *testing.T) {
	m := newMatrixOf([]caseDef{
		{row: "R01", name: "a", classes: both},
		{row: "R01", name: "b", classes: linksOnly},
		{row: "R02", name: "a", classes: both},
		{row: "R03", name: "a", classes: nolinksOnly},
	})
	var out strings.Builder
	m.stream(&out, []Class{Links, NoLinks})
	step := func(row string, class Class, failed, skipped bool, want string) {
		t.Helper()
		m.record(row, class, failed, skipped)
		if got := out.String(); got != want {
			t.Fatalf("after %s/%s ended: written %q, want %q", row, class, got, want)
		}
	}
	r01 := "R01 links=not-run nolinks=pass dirpublish=not-run Free\n"
	r02 := "R02 links=fail nolinks=pass dirpublish=not-run A live holder, short\n"
	step("R01", Links, false, false, "")
	step("R02", Links, true, false, "")
	step("R01", NoLinks, false, false, "")
	step("R01", Links, false, true, r01) // its last case, skipped: it ended
	step("R02", NoLinks, false, false, r01+r02)

	out.Reset()
	printEnd(&out, m, volume{dir: "/mnt/x", hasLinks: true}, []Class{Links, NoLinks})
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(Rows)-2+1 {
		t.Fatalf("the end wrote %d lines, want %d (the rows not written, the summary):\n%s", len(lines), len(Rows)-2+1, out.String())
	}
	for i, r := range Rows[2:] {
		if want := m.line(r); lines[i]+"\n" != want {
			t.Errorf("the end's line %d: %q, want %q", i+1, lines[i], want)
		}
	}
	if got, want := lines[0], "R03 links=not-run nolinks=not-run dirpublish=not-run "+Rows[2].Title; got != want {
		t.Errorf("a row not ended: %q, want %q", got, want)
	}
	if got, want := lines[len(lines)-1], "conformance: 2 of 114 cells pass (classes links, nolinks) in /mnt/x"; got != want {
		t.Errorf("the summary: %q, want %q", got, want)
	}
}

// A row ends when its cells of the classes under test end: a column not
// under test is not waited for.
func TestMatrixWaitsForTheClassesUnderTestOnly(t *testing.T) {
	m := newMatrixOf([]caseDef{{row: "R01", name: "a", classes: both}})
	var out strings.Builder
	m.stream(&out, []Class{NoLinks})
	m.record("R01", NoLinks, false, false)
	if got, want := out.String(), "R01 links=not-run nolinks=pass dirpublish=not-run Free\n"; got != want {
		t.Fatalf("written %q, want %q", got, want)
	}
}

// Cases that end at once in parallel write each row's line once, whole.
func TestMatrixWritesEachRowOnceUnderParallelCases(t *testing.T) {
	var cases []caseDef
	for _, r := range Rows {
		for _, name := range []string{"a", "b", "c"} {
			cases = append(cases, caseDef{row: r.ID, name: name, classes: both})
		}
	}
	m := newMatrixOf(cases)
	var out strings.Builder
	m.stream(&out, columns)
	var wg sync.WaitGroup
	for _, c := range cases {
		for _, cl := range c.classes.list() {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m.record(c.row, cl, false, false)
			}()
		}
	}
	wg.Wait()
	m.printRest(&out)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(Rows) {
		t.Fatalf("wrote %d lines, want %d:\n%s", len(lines), len(Rows), out.String())
	}
	seen := map[string]bool{}
	for _, l := range lines {
		id, rest, _ := strings.Cut(l, " ")
		if seen[id] || !strings.HasPrefix(rest, "links=pass nolinks=pass ") {
			t.Errorf("line %q: written twice, or not whole", l)
		}
		seen[id] = true
	}
}
