package conformance

import (
	"os"
	"strings"
	"testing"
)

// The suite's rows are spec/rows.tsv's, in order, with the same titles.
func TestRowsMatchTheSpec(t *testing.T) {
	b, err := os.ReadFile("../spec/rows.tsv")
	if err != nil {
		t.Skipf("spec/rows.tsv: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) != specRows || len(Rows) != specRows+8 {
		t.Fatalf("spec/rows.tsv has %d rows, the suite %d; want %d and %d", len(lines), len(Rows), specRows, specRows+8)
	}
	for i, l := range lines {
		id, title, _ := strings.Cut(l, "\t")
		if Rows[i].ID != id || Rows[i].Title != title {
			t.Errorf("row %d: suite %q %q; spec %q %q", i+1, Rows[i].ID, Rows[i].Title, id, title)
		}
	}
}

// Every row has a case on each column, and case names are unique in a row.
func TestRegistryCoversEveryCell(t *testing.T) {
	for _, r := range Rows {
		for _, c := range columns {
			if len(casesOf(r.ID, c)) == 0 {
				t.Errorf("%s/%s has no case", r.ID, c)
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range registry {
		k := d.row + "/" + d.name
		if seen[k] {
			t.Errorf("case %s is registered twice", k)
		}
		seen[k] = true
	}
}
