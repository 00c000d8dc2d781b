package conformance

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// citation is a case cited in a cell of the design page's table, by its
// subtest path: ROW/CLASS/CASE.
var citation = regexp.MustCompile("`(R[0-9]{2})/(links|nolinks|dirpublish)/([a-z0-9-]+)`")

// tableRow is a line of the table: it starts with a row id.
var tableRow = regexp.MustCompile(`^\| R[0-9]{2} `)

// The table of docs/spawn-log-lock.md has the 57 rows in order, and each of
// its 171 cells (a row's three columns) cites exactly the cases the registry has for that cell: a
// case cited that does not exist, or a case (or a whole cell) left out,
// fails, so the page cannot drift from the code.
func TestDocsTableCitesTheRegistry(t *testing.T) {
	b, err := os.ReadFile("../docs/spawn-log-lock.md")
	if err != nil {
		t.Fatalf("the design page: %v", err)
	}
	var rows []string
	for _, line := range strings.Split(string(b), "\n") {
		if !tableRow.MatchString(line) {
			continue
		}
		cells := strings.Split(strings.TrimSuffix(line, " |"), " | ")
		if len(cells) != 1+len(columns) {
			t.Errorf("table line %.40q has %d cells; want %d", line, len(cells), 1+len(columns))
			continue
		}
		row := strings.Fields(strings.TrimPrefix(cells[0], "| "))[0]
		rows = append(rows, row)
		for i, class := range columns {
			var cited []string
			for _, m := range citation.FindAllStringSubmatch(cells[i+1], -1) {
				if m[1] != row || Class(m[2]) != class {
					t.Errorf("%s/%s cites %s, a case of another cell", row, class, m[0])
					continue
				}
				cited = append(cited, m[3])
			}
			var want []string
			for _, c := range casesOf(row, class) {
				want = append(want, c.name)
			}
			slices.Sort(cited)
			slices.Sort(want)
			if len(want) == 0 || !slices.Equal(cited, want) {
				t.Errorf("%s/%s cites %q; the registry has %q", row, class, cited, want)
			}
		}
	}
	var ids []string
	for _, r := range Rows {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(rows, ids) {
		t.Errorf("the table's rows are %q; want R01..R57 in order", rows)
	}
}
