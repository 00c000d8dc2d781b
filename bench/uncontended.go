package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// uncontendedWarmup updates are run before the timed ones of every run:
// the first open of a folder and the first GC are not the lock's cost.
const uncontendedWarmup = 5

// uncontendedRun is one run of the uncontended measure: one process, one
// contender, updates read-modify-writes in a row of a data file that holds
// records records (each update appends one and drops the oldest, so every
// update does the same JSON work), in a fresh folder under base. It returns
// the time per update, and checks the file afterwards (checkWindow).
func uncontendedRun(c Contender, base string, records, updates int) (time.Duration, error) {
	dir, err := os.MkdirTemp(base, "uncontended-"+c.Key+"-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	pid := os.Getpid()
	var doc Document
	for i := range records {
		doc.Records = append(doc.Records, newRecord(0, i, pid, "2026-01-01T00:00:00Z"))
	}
	initial, err := encodeDocument(doc)
	if err != nil {
		return 0, err
	}
	if err := writeAtomic(dir, dataName, initial); err != nil {
		return 0, err
	}
	inst, err := c.Open(dir)
	if err != nil {
		return 0, err
	}
	defer inst.Close()
	seq := records
	update := func() error {
		err := inst.Update(func(current []byte, exists bool) ([]byte, error) {
			return appendRecord(current, exists, newRecord(0, seq, pid, time.Now().UTC().Format(time.RFC3339Nano)), records)
		}, nil)
		if err != nil {
			return fmt.Errorf("uncontended %s, update %d: %w", c.Name, seq, err)
		}
		seq++
		return nil
	}
	for range uncontendedWarmup {
		if err := update(); err != nil {
			return 0, err
		}
	}
	runtime.GC() // the garbage of the runs before is not this run's
	start := time.Now()
	for range updates {
		if err := update(); err != nil {
			return 0, err
		}
	}
	elapsed := time.Since(start)
	data, err := os.ReadFile(filepath.Join(dir, dataName))
	if err != nil {
		return 0, err
	}
	got, err := decodeDocument(data)
	if err != nil {
		return 0, err
	}
	if err := checkWindow(got.Records, records, seq-1); err != nil {
		return 0, fmt.Errorf("uncontended %s: %w", c.Name, err)
	}
	return elapsed / time.Duration(updates), nil
}

// uncontendedResult is the uncontended measure on one folder: each
// contender's time per update, one per round.
type uncontendedResult struct {
	Label, Dir       string
	Records, Updates int
	PerUpdate        map[string][]time.Duration // by contender key, in round order
	Skipped          string                     // why the measure did not run here, or ""
}

// measureUncontended runs rounds of the uncontended measure in base:
// every contender once per round, interleaved (the order rotates from round
// to round), after checking that the two classes of this project's lock
// are the ones named on this folder.
func measureUncontended(label, base string, records, updates, rounds int, progress func(string)) (*uncontendedResult, error) {
	res := &uncontendedResult{Label: label, Dir: base, Records: records, Updates: updates, PerUpdate: map[string][]time.Duration{}}
	if err := checkClasses(base); err != nil {
		return nil, err
	}
	for r := range rounds {
		for _, c := range rotate(allContenders, r) {
			progress(fmt.Sprintf("uncontended on %s: round %d/%d, %s", label, r+1, rounds, c.Name))
			d, err := uncontendedRun(c, base, records, updates)
			if err != nil {
				return nil, err
			}
			res.PerUpdate[c.Key] = append(res.PerUpdate[c.Key], d)
		}
	}
	return res, nil
}

// checkClasses checks, in a fresh folder under base, that this project's
// lock publishes by link() on osfs and by an exclusive create on nolinkfs:
// a volume without hard links would make the two pa rows one class.
func checkClasses(base string) error {
	dir, err := os.MkdirTemp(base, "class-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for _, tc := range []struct {
		links bool
		name  string
	}{{true, paLinks.Name}, {false, paNoLinks.Name}} {
		p, err := openPA(dir, tc.links)
		if err != nil {
			return err
		}
		got, err := p.HardLinks()
		_ = p.Close()
		if err != nil {
			return err
		}
		if got != tc.links {
			return fmt.Errorf("%s in %s: a hold published with hard links = %v, want %v (a volume without hard links?)", tc.name, base, got, tc.links)
		}
	}
	return nil
}
