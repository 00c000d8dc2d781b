package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// uncontendedWarmup updates are run before the timed ones of every
// contender in every round: the first open of a folder and the first GC are
// not the lock's cost.
const uncontendedWarmup = 5

// uncontendedSlice is how many updates in a row one contender runs before
// the next contender's turn, within a round.
const uncontendedSlice = 100

// uncontendedRunner is one contender's part of an uncontended round: its
// folder, its instance, and the updates it has run.
type uncontendedRunner struct {
	c       Contender
	dir     string
	inst    Instance
	records int
	seq     int // the next record's seq
	elapsed time.Duration
	timed   int
}

// newUncontendedRunner makes a fresh folder under base with a data file of
// records records, opens c on it and runs the warm-up updates.
func newUncontendedRunner(c Contender, base string, records int) (*uncontendedRunner, error) {
	dir, err := os.MkdirTemp(base, "uncontended-"+c.Key+"-")
	if err != nil {
		return nil, err
	}
	r := &uncontendedRunner{c: c, dir: dir, records: records, seq: records}
	var doc Document
	for i := range records {
		doc.Records = append(doc.Records, newRecord(0, i, os.Getpid(), "2026-01-01T00:00:00Z"))
	}
	initial, err := encodeDocument(doc)
	if err == nil {
		err = writeAtomic(dir, dataName, initial)
	}
	if err == nil {
		r.inst, err = c.Open(dir)
	}
	if err == nil {
		err = r.run(uncontendedWarmup)
	}
	if err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// run runs n updates in a row: each appends one record and drops the
// oldest, so every update does the same JSON work on records records.
func (r *uncontendedRunner) run(n int) error {
	pid := os.Getpid()
	for range n {
		err := r.inst.Update(func(current []byte, exists bool) ([]byte, error) {
			return appendRecord(current, exists, newRecord(0, r.seq, pid, time.Now().UTC().Format(time.RFC3339Nano)), r.records)
		}, nil)
		if err != nil {
			return fmt.Errorf("uncontended %s, update %d: %w", r.c.Name, r.seq, err)
		}
		r.seq++
	}
	return nil
}

// timedSlice runs n updates in a row and adds their time.
func (r *uncontendedRunner) timedSlice(n int) error {
	start := time.Now()
	err := r.run(n)
	r.elapsed += time.Since(start)
	r.timed += n
	return err
}

// check reads the data file back: the last records records, the newest
// last, none lost (checkWindow).
func (r *uncontendedRunner) check() error {
	data, err := os.ReadFile(filepath.Join(r.dir, dataName))
	if err != nil {
		return err
	}
	got, err := decodeDocument(data)
	if err != nil {
		return err
	}
	if err := checkWindow(got.Records, r.records, r.seq-1); err != nil {
		return fmt.Errorf("uncontended %s: %w", r.c.Name, err)
	}
	return nil
}

func (r *uncontendedRunner) close() {
	if r.inst != nil {
		_ = r.inst.Close()
	}
	_ = os.RemoveAll(r.dir)
}

// uncontendedRound is one round of the uncontended measure in base: each
// contender runs updates read-modify-writes of its own data file of records
// records, in slices of uncontendedSlice in a row, the contenders' slices
// interleaved (A B C ... A B C ...) so that a change of the machine's load
// falls on all of them alike. It returns each contender's time per update
// and checks every file afterwards.
func uncontendedRound(cs []Contender, base string, records, updates int) (map[string]time.Duration, error) {
	runners := make([]*uncontendedRunner, 0, len(cs))
	defer func() {
		for _, r := range runners {
			r.close()
		}
	}()
	for _, c := range cs {
		r, err := newUncontendedRunner(c, base, records)
		if err != nil {
			return nil, err
		}
		runners = append(runners, r)
	}
	runtime.GC() // the set-up's garbage is not the first slice's
	for done := 0; done < updates; done += uncontendedSlice {
		n := min(uncontendedSlice, updates-done)
		for _, r := range runners {
			if err := r.timedSlice(n); err != nil {
				return nil, err
			}
		}
	}
	out := map[string]time.Duration{}
	for _, r := range runners {
		if err := r.check(); err != nil {
			return nil, err
		}
		out[r.c.Key] = r.elapsed / time.Duration(r.timed)
	}
	return out, nil
}

// uncontendedResult is the uncontended measure on one folder: each
// contender's time per update, one per round.
type uncontendedResult struct {
	Label, Dir       string
	Records, Updates int
	PerUpdate        map[string][]time.Duration // by contender key, in round order
}

// measureUncontended runs rounds of the uncontended measure in base (the
// contenders' order rotating from round to round), after checking that the
// two classes of this project's lock are the ones named on this folder.
func measureUncontended(label, base string, records, updates, rounds int, progress func(string)) (*uncontendedResult, error) {
	res := &uncontendedResult{Label: label, Dir: base, Records: records, Updates: updates, PerUpdate: map[string][]time.Duration{}}
	if err := checkClasses(base); err != nil {
		return nil, err
	}
	for r := range rounds {
		progress(fmt.Sprintf("uncontended on the %s: round %d/%d", label, r+1, rounds))
		per, err := uncontendedRound(rotate(allContenders, r), base, records, updates)
		if err != nil {
			return nil, err
		}
		for k, d := range per {
			res.PerUpdate[k] = append(res.PerUpdate[k], d)
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
