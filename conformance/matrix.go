package conformance

import (
	"fmt"
	"io"
	"sync"
)

// Cell states, as the matrix prints them.
const (
	cellPass   = "pass"
	cellFail   = "fail"
	cellNotRun = "not-run"
)

// matrix records how each case of each cell ended. It is safe for
// concurrent use (cases may run in parallel).
type matrix struct {
	mu    sync.Mutex
	want  map[cellKey]int // cases registered for the cell
	ran   map[cellKey]int // cases that ran to the end and passed
	fails map[cellKey]int // cases that failed
}

type cellKey struct {
	row   string
	class Class
}

func newMatrix() *matrix { return newMatrixOf(registry) }

// newMatrixOf is a matrix whose cells want the given cases only.
func newMatrixOf(cases []caseDef) *matrix {
	m := &matrix{want: map[cellKey]int{}, ran: map[cellKey]int{}, fails: map[cellKey]int{}}
	for _, c := range cases {
		for _, cl := range c.classes.list() {
			m.want[cellKey{c.row, cl}]++
		}
	}
	return m
}

// record notes the end of one case: failed, skipped, or passed.
func (m *matrix) record(row string, class Class, failed, skipped bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := cellKey{row, class}
	switch {
	case failed:
		m.fails[k]++
	case !skipped:
		m.ran[k]++
	}
}

// state is a cell's state: fail when a case failed, pass when every case
// registered for it passed, not-run otherwise (none ran, some were
// skipped or filtered out).
func (m *matrix) state(row string, class Class) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := cellKey{row, class}
	switch {
	case m.fails[k] > 0:
		return cellFail
	case m.want[k] > 0 && m.ran[k] == m.want[k]:
		return cellPass
	}
	return cellNotRun
}

// print writes the matrix, one line a row: the row id, links=STATE,
// nolinks=STATE and the title, so that a script can read it.
func (m *matrix) print(w io.Writer) {
	for _, r := range Rows {
		fmt.Fprintf(w, "%s links=%s nolinks=%s %s\n", r.ID, m.state(r.ID, Links), m.state(r.ID, NoLinks), r.Title)
	}
}

// notRun lists the cells of the given columns that did not run, as
// R05/links.
func (m *matrix) notRun(classes []Class) []string {
	var out []string
	for _, r := range Rows {
		for _, c := range classes {
			if m.state(r.ID, c) == cellNotRun {
				out = append(out, r.ID+"/"+string(c))
			}
		}
	}
	return out
}

// counts returns how many cells of the given columns passed, of how many.
func (m *matrix) counts(classes []Class) (pass, total int) {
	for _, r := range Rows {
		for _, c := range classes {
			total++
			if m.state(r.ID, c) == cellPass {
				pass++
			}
		}
	}
	return pass, total
}
