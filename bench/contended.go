package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// contendParams are a contended worker's parameters.
type contendParams struct {
	Key     string `json:"key"`     // the contender
	Dir     string `json:"dir"`     // the folder of the data file
	Worker  int    `json:"worker"`  // this worker's number, 0..workers-1
	Updates int    `json:"updates"` // how many records it appends
}

// contendReport is a contended worker's last line.
type contendReport struct {
	Worker   int           `json:"worker"`
	Acquires int           `json:"acquires"` // waits, the timed-out ones included
	Timeouts int           `json:"timeouts"` // updates that gave up after Timeout (and were tried again)
	MaxWait  time.Duration `json:"maxWait"`  // the longest single wait for the lock
	Wait     time.Duration `json:"wait"`     // all waits added up
	WaitCPU  time.Duration `json:"waitCPU"`  // the process's CPU time during those waits
}

// contendWorker is one of the contending processes: it opens its instance
// of the contender, says it is ready, waits for the start (fd 3), then
// appends Updates records, one per update, timing each wait for the lock
// (from the call to the moment the lock is held) and the CPU the process
// spends in it. An update that times out wrote nothing (errTimeout): it is
// counted and run again, as an agent runtime runs `pa dispatch open` again
// after exit 2. Any other error ends the worker with it.
func contendWorker(raw []byte) error {
	var p contendParams
	inst, err := workerInstance(raw, &p)
	if err != nil {
		return err
	}
	defer inst.Close()
	if err := say(ready{Ready: true}); err != nil {
		return err
	}
	if err := waitStart(os.NewFile(3, "start")); err != nil {
		return err
	}
	rep := contendReport{Worker: p.Worker}
	pid := os.Getpid()
	for seq := 0; seq < p.Updates; {
		var waited, waitCPU time.Duration
		start, cpu0 := time.Now(), cpuNow()
		acquired := func() { waited, waitCPU = time.Since(start), cpuNow()-cpu0 }
		err := inst.Update(func(current []byte, exists bool) ([]byte, error) {
			return appendRecord(current, exists, newRecord(p.Worker, seq, pid, time.Now().UTC().Format(time.RFC3339Nano)), 0)
		}, acquired)
		timedOut := errors.Is(err, errTimeout)
		if err != nil && !timedOut {
			return fmt.Errorf("update %d: %w", seq, err)
		}
		if timedOut {
			waited, waitCPU = time.Since(start), cpuNow()-cpu0
			rep.Timeouts++
		} else {
			seq++
		}
		rep.Acquires++
		rep.Wait += waited
		rep.WaitCPU += waitCPU
		rep.MaxWait = max(rep.MaxWait, waited)
	}
	return say(rep)
}

// contendRound is one contended run of one contender.
type contendRound struct {
	Wall     time.Duration // from the start to the last worker's report
	CPU      time.Duration // the workers' user+sys (rusage at their exit), added up
	Changes  int           // how many times the lock changed process
	MaxWait  time.Duration // the longest single wait of any worker
	WaitCPU  time.Duration // the workers' CPU while waiting, added up
	Wait     time.Duration // the workers' waits, added up
	Timeouts int
}

// contendRun runs one contended round: workers processes of c, each
// appending updates records to one data file in a fresh folder under base,
// all started at once. Afterwards it checks that every record is in the
// file exactly once (checkRecords): a lost or doubled record fails the run.
func contendRun(c Contender, base string, workers, updates int) (contendRound, error) {
	if !c.Locks {
		return contendRound{}, fmt.Errorf("%s takes no lock: it cannot run contended", c.Name)
	}
	dir, err := os.MkdirTemp(base, "contend-"+c.Key+"-")
	if err != nil {
		return contendRound{}, err
	}
	defer os.RemoveAll(dir)
	empty, err := encodeDocument(Document{})
	if err != nil {
		return contendRound{}, err
	}
	if err := writeAtomic(dir, dataName, empty); err != nil {
		return contendRound{}, err
	}
	startR, startW, err := os.Pipe()
	if err != nil {
		return contendRound{}, err
	}
	defer startW.Close()
	children := make([]*child, 0, workers)
	fail := func(err error) (contendRound, error) {
		_ = startR.Close()
		killAll(children)
		return contendRound{}, fmt.Errorf("contended %s: %w", c.Name, err)
	}
	for w := range workers {
		ch, err := startChild(roleContend, contendParams{Key: c.Key, Dir: dir, Worker: w, Updates: updates}, startR)
		if err != nil {
			return fail(err)
		}
		children = append(children, ch)
	}
	_ = startR.Close()
	for _, ch := range children {
		var r ready
		if err := ch.next(&r, time.Minute); err != nil {
			return fail(err)
		}
	}
	start := time.Now()
	_ = startW.Close() // go
	var round contendRound
	var last time.Time
	for _, ch := range children {
		var rep contendReport
		if err := ch.next(&rep, 10*time.Minute); err != nil {
			return fail(err)
		}
		last = time.Now()
		round.MaxWait = max(round.MaxWait, rep.MaxWait)
		round.WaitCPU += rep.WaitCPU
		round.Wait += rep.Wait
		round.Timeouts += rep.Timeouts
	}
	round.Wall = last.Sub(start)
	for _, ch := range children {
		if err := ch.wait(); err != nil {
			return fail(err)
		}
		round.CPU += ch.usage()
	}
	data, err := os.ReadFile(filepath.Join(dir, dataName))
	if err != nil {
		return fail(err)
	}
	doc, err := decodeDocument(data)
	if err != nil {
		return fail(err)
	}
	if err := checkRecords(doc.Records, workers, updates); err != nil {
		return fail(err)
	}
	round.Changes = writerChanges(doc.Records)
	return round, nil
}

// contendedResult is the contended measure: each contender's rounds.
type contendedResult struct {
	Workers, Updates int
	Rounds           map[string][]contendRound // by contender key, in round order
}

// measureContended runs rounds of the contended measure in base: every
// contender that locks once per round, interleaved (the order rotates from
// round to round).
func measureContended(base string, workers, updates, rounds int, progress func(string)) (*contendedResult, error) {
	res := &contendedResult{Workers: workers, Updates: updates, Rounds: map[string][]contendRound{}}
	for r := range rounds {
		for _, c := range rotate(lockContenders, r) {
			progress(fmt.Sprintf("contended: round %d/%d, %s", r+1, rounds, c.Name))
			round, err := contendRun(c, base, workers, updates)
			if err != nil {
				return nil, err
			}
			res.Rounds[c.Key] = append(res.Rounds[c.Key], round)
		}
	}
	return res, nil
}

// rotate returns cs starting at its (r mod len)-th element: round r's order.
func rotate[T any](cs []T, r int) []T {
	if len(cs) == 0 {
		return nil
	}
	k := r % len(cs)
	return append(append([]T(nil), cs[k:]...), cs[:k]...)
}
