package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// dataName is the data file every contender updates, in a fresh folder of
// its own for each run.
const dataName = "data.json"

// Record is one update's record in the data file. Worker and Seq name who
// wrote it and which of that worker's updates it is, so the final file
// shows the order in which the lock went from process to process.
type Record struct {
	Worker int    `json:"worker"` // the writing worker's number (0 when one process writes)
	Seq    int    `json:"seq"`    // the writer's own count of its updates, from 1
	PID    int    `json:"pid"`    // the writing process
	At     string `json:"at"`     // when it was written, RFC 3339 with nanoseconds
	Title  string `json:"title"`  // filler, the size of a dispatch title
}

// Document is the data file: {"records": [...]}, indented with two spaces
// and a final newline, as the spawn-log is written.
type Document struct {
	Records []Record `json:"records"` // in the order they were appended
}

// appendRecord is the JSON step every contender runs under its lock, the
// same for all: decode the current document with encoding/json (exists
// false: an empty one), append rec, drop the oldest records beyond keep
// (keep <= 0 keeps all), and encode it indented. It fails when current is
// not a Document.
func appendRecord(current []byte, exists bool, rec Record, keep int) ([]byte, error) {
	var doc Document
	if exists {
		if err := json.Unmarshal(current, &doc); err != nil {
			return nil, fmt.Errorf("the data file does not parse: %w", err)
		}
	}
	doc.Records = append(doc.Records, rec)
	if keep > 0 && len(doc.Records) > keep {
		doc.Records = doc.Records[len(doc.Records)-keep:]
	}
	return encodeDocument(doc)
}

// encodeDocument is doc as the data file holds it.
func encodeDocument(doc Document) ([]byte, error) {
	if doc.Records == nil {
		doc.Records = []Record{}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// decodeDocument parses the data file.
func decodeDocument(data []byte) (Document, error) {
	var doc Document
	if err := json.Unmarshal(data, &doc); err != nil {
		return Document{}, fmt.Errorf("the data file does not parse: %w", err)
	}
	return doc, nil
}

// newRecord is the record of worker's update seq, padded to about the size
// of a spawn-log record.
func newRecord(worker, seq, pid int, at string) Record {
	return Record{Worker: worker, Seq: seq, PID: pid, At: at, Title: fmt.Sprintf("update %d of worker %d", seq, worker)}
}

// checkRecords checks the data file of a contended run: every (worker, seq)
// with 0 <= worker < workers and 0 <= seq < perWorker present exactly once,
// nothing else, and each worker's records in the order it wrote them. It
// returns nil, or an error naming how many are missing, duplicated,
// unexpected or out of order, with the first few of each.
func checkRecords(recs []Record, workers, perWorker int) error {
	type key struct{ w, s int }
	seen := make(map[key]int, len(recs))
	var unexpected, disordered []string
	last := make(map[int]int)
	for i, r := range recs {
		k := key{r.Worker, r.Seq}
		seen[k]++
		if r.Worker < 0 || r.Worker >= workers || r.Seq < 0 || r.Seq >= perWorker {
			unexpected = append(unexpected, fmt.Sprintf("%d/%d", r.Worker, r.Seq))
			continue
		}
		if prev, ok := last[r.Worker]; ok && r.Seq <= prev {
			disordered = append(disordered, fmt.Sprintf("%d/%d after %d/%d (record %d)", r.Worker, r.Seq, r.Worker, prev, i))
		}
		last[r.Worker] = r.Seq
	}
	var missing, duplicated []string
	for w := range workers {
		for s := range perWorker {
			switch n := seen[key{w, s}]; {
			case n == 0:
				missing = append(missing, fmt.Sprintf("%d/%d", w, s))
			case n > 1:
				duplicated = append(duplicated, fmt.Sprintf("%d/%d x%d", w, s, n))
			}
		}
	}
	var problems []string
	for _, p := range []struct {
		what  string
		items []string
	}{{"missing", missing}, {"duplicated", duplicated}, {"unexpected", unexpected}, {"out of order", disordered}} {
		if len(p.items) > 0 {
			problems = append(problems, fmt.Sprintf("%d %s (worker/seq: %s)", len(p.items), p.what, firstFew(p.items)))
		}
	}
	if problems != nil {
		return fmt.Errorf("records check failed: %d records for %d workers x %d: %s",
			len(recs), workers, perWorker, strings.Join(problems, "; "))
	}
	return nil
}

// checkWindow checks the data file of an uncontended run: exactly keep
// records (or fewer when fewer were ever written), the last of them seq
// last, the seqs consecutive before it, all of one worker.
func checkWindow(recs []Record, keep, last int) error {
	want := min(keep, last+1)
	if len(recs) != want {
		return fmt.Errorf("records check failed: %d records, want %d", len(recs), want)
	}
	for i, r := range recs {
		if wantSeq := last - (len(recs) - 1 - i); r.Seq != wantSeq || r.Worker != recs[0].Worker {
			return fmt.Errorf("records check failed: record %d is %d/%d, want %d/%d", i, r.Worker, r.Seq, recs[0].Worker, wantSeq)
		}
	}
	return nil
}

// writerChanges counts how many times the lock changed process: the
// records whose worker differs from the record's before them.
func writerChanges(recs []Record) int {
	n := 0
	for i := 1; i < len(recs); i++ {
		if recs[i].Worker != recs[i-1].Worker {
			n++
		}
	}
	return n
}

// firstFew joins the first five items, and says how many more there are.
func firstFew(items []string) string {
	const few = 5
	if len(items) <= few {
		return strings.Join(items, ", ")
	}
	return strings.Join(slices.Clip(items[:few]), ", ") + fmt.Sprintf(", ... (%d more)", len(items)-few)
}
