package main

import (
	"strings"
	"testing"
)

// recs makes records from worker/seq pairs.
func recs(pairs ...[2]int) []Record {
	out := make([]Record, 0, len(pairs))
	for _, p := range pairs {
		out = append(out, Record{Worker: p[0], Seq: p[1]})
	}
	return out
}

func TestCheckRecords(t *testing.T) {
	tests := []struct {
		name string
		recs []Record
		want string // "" for nil, else a part of the error
	}{
		{"all, interleaved", recs([2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}, [2]int{1, 1}), ""},
		{"all, in runs", recs([2]int{1, 0}, [2]int{1, 1}, [2]int{0, 0}, [2]int{0, 1}), ""},
		{"one lost", recs([2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}), "1 missing (worker/seq: 1/1)"},
		{"one doubled", recs([2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}, [2]int{1, 1}, [2]int{1, 1}), "1 duplicated (worker/seq: 1/1 x2)"},
		{"a stranger's", recs([2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}, [2]int{1, 1}, [2]int{2, 0}), "1 unexpected (worker/seq: 2/0)"},
		{"a seq past the end", recs([2]int{0, 0}, [2]int{1, 0}, [2]int{0, 1}, [2]int{1, 1}, [2]int{0, 2}), "1 unexpected (worker/seq: 0/2)"},
		{"a worker's out of its order", recs([2]int{0, 1}, [2]int{0, 0}, [2]int{1, 0}, [2]int{1, 1}), "1 out of order"},
		{"none", nil, "4 missing"},
	}
	for _, tt := range tests {
		err := checkRecords(tt.recs, 2, 2)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: checkRecords = %v, want nil", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: checkRecords = %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

func TestCheckRecordsFullSize(t *testing.T) {
	var all []Record
	for s := range 200 {
		for w := range 8 {
			all = append(all, Record{Worker: w, Seq: s})
		}
	}
	if err := checkRecords(all, 8, 200); err != nil {
		t.Fatalf("checkRecords of all 1,600 = %v, want nil", err)
	}
	lost := append(append([]Record(nil), all[:700]...), all[701:]...)
	if err := checkRecords(lost, 8, 200); err == nil || !strings.Contains(err.Error(), "1 missing") {
		t.Errorf("checkRecords with record 700 lost = %v, want 1 missing", err)
	}
}

func TestCheckWindow(t *testing.T) {
	window := recs([2]int{0, 7}, [2]int{0, 8}, [2]int{0, 9})
	if err := checkWindow(window, 3, 9); err != nil {
		t.Errorf("checkWindow of 7, 8, 9 (keep 3, last 9) = %v, want nil", err)
	}
	for _, tc := range []struct {
		name string
		recs []Record
		keep int
		last int
	}{
		{"one short", recs([2]int{0, 8}, [2]int{0, 9}), 3, 9},
		{"one too many", recs([2]int{0, 6}, [2]int{0, 7}, [2]int{0, 8}, [2]int{0, 9}), 3, 9},
		{"a gap", recs([2]int{0, 6}, [2]int{0, 8}, [2]int{0, 9}), 3, 9},
		{"the last update lost", window, 3, 10},
		{"another worker's", recs([2]int{0, 7}, [2]int{1, 8}, [2]int{0, 9}), 3, 9},
	} {
		if err := checkWindow(tc.recs, tc.keep, tc.last); err == nil {
			t.Errorf("%s: checkWindow = nil, want an error", tc.name)
		}
	}
}

func TestWriterChanges(t *testing.T) {
	tests := []struct {
		workers []int
		want    int
	}{
		{nil, 0},
		{[]int{3}, 0},
		{[]int{0, 0, 0, 0}, 0},
		{[]int{0, 1, 0, 1}, 3},
		{[]int{0, 0, 1, 1, 2, 2, 0}, 3},
	}
	for _, tt := range tests {
		var rs []Record
		for _, w := range tt.workers {
			rs = append(rs, Record{Worker: w})
		}
		if got := writerChanges(rs); got != tt.want {
			t.Errorf("writerChanges(%v) = %d, want %d", tt.workers, got, tt.want)
		}
	}
}

func TestAppendRecord(t *testing.T) {
	data, err := appendRecord(nil, false, Record{Worker: 1, Seq: 0}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for seq := 1; seq < 5; seq++ {
		if data, err = appendRecord(data, true, Record{Worker: 1, Seq: seq}, 3); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := decodeDocument(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkWindow(doc.Records, 3, 4); err != nil {
		t.Errorf("after 5 appends keeping 3: %v", err)
	}
	if !strings.HasPrefix(string(data), "{\n  \"records\": [\n    {\n") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("the document is not indented with two spaces and a final newline:\n%s", data)
	}
	if _, err := appendRecord([]byte("{"), true, Record{}, 0); err == nil {
		t.Error("appendRecord of a file that does not parse = nil error, want one")
	}
}
