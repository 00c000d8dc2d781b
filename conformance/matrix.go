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

// matrix records how each case of each cell ended, and writes the matrix
// one line a row: the row id, links=STATE, nolinks=STATE and the title, so
// that a script can read it. It is safe for concurrent use (cases may run
// in parallel).
type matrix struct {
	mu    sync.Mutex
	want  map[cellKey]int // cases registered for the cell
	ran   map[cellKey]int // cases that ran to the end and passed
	fails map[cellKey]int // cases that failed
	ended map[cellKey]int // cases recorded: passed, failed or skipped

	// Set by stream: where a row's line goes as soon as the row ends, and
	// the columns whose cells it waits for.
	out     io.Writer
	classes []Class
	written map[string]bool // rows whose line is written
}

type cellKey struct {
	row   string
	class Class
}

func newMatrix() *matrix { return newMatrixOf(registry) }

// newMatrixOf is a matrix whose cells want the given cases only.
func newMatrixOf(cases []caseDef) *matrix {
	m := &matrix{
		want: map[cellKey]int{}, ran: map[cellKey]int{}, fails: map[cellKey]int{}, ended: map[cellKey]int{},
		written: map[string]bool{},
	}
	for _, c := range cases {
		for _, cl := range c.classes.list() {
			m.want[cellKey{c.row, cl}]++
		}
	}
	return m
}

// stream makes record write a row's line to w as soon as the row has
// ended: every case registered for its cells of classes is recorded. The
// lines of rows that never end are left to printRest.
func (m *matrix) stream(w io.Writer, classes []Class) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.out, m.classes = w, classes
}

// record notes the end of one case: failed, skipped, or passed. When it is
// the last case of its row and the matrix streams, it writes the row's
// line.
func (m *matrix) record(row string, class Class, failed, skipped bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := cellKey{row, class}
	m.ended[k]++
	switch {
	case failed:
		m.fails[k]++
	case !skipped:
		m.ran[k]++
	}
	if m.out == nil || m.written[row] || !m.rowEndedLocked(row) {
		return
	}
	for _, r := range Rows {
		if r.ID == row {
			m.written[row] = true
			fmt.Fprint(m.out, m.lineLocked(r))
			return
		}
	}
}

// rowEndedLocked reports whether every case registered for row's cells of
// the streamed classes is recorded. The caller holds mu.
func (m *matrix) rowEndedLocked(row string) bool {
	for _, c := range m.classes {
		k := cellKey{row, c}
		if m.ended[k] < m.want[k] {
			return false
		}
	}
	return true
}

// printRest writes the line of every row not yet written (every row when
// the matrix does not stream), in the table's order.
func (m *matrix) printRest(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range Rows {
		if !m.written[r.ID] {
			m.written[r.ID] = true
			fmt.Fprint(w, m.lineLocked(r))
		}
	}
}

// line is row r's line of the matrix, its newline included.
func (m *matrix) line(r Row) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.lineLocked(r)
}

// lineLocked is line, for a caller that holds mu.
func (m *matrix) lineLocked(r Row) string {
	return fmt.Sprintf("%s links=%s nolinks=%s dirpublish=%s %s\n", r.ID,
		m.stateLocked(r.ID, Links), m.stateLocked(r.ID, NoLinks), m.stateLocked(r.ID, DirPublish), r.Title)
}

// state is a cell's state: fail when a case failed, pass when every case
// registered for it passed, not-run otherwise (none ran, some were
// skipped or filtered out).
func (m *matrix) state(row string, class Class) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stateLocked(row, class)
}

// stateLocked is state, for a caller that holds mu.
func (m *matrix) stateLocked(row string, class Class) string {
	k := cellKey{row, class}
	switch {
	case m.fails[k] > 0:
		return cellFail
	case m.want[k] > 0 && m.ran[k] == m.want[k]:
		return cellPass
	}
	return cellNotRun
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
