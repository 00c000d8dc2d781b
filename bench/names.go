package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// namesWarmup acquires are made, untimed, before the timed ones.
const namesWarmup = 3

// namesResult is the names measure: locking.Acquire's time with a number of
// unrelated files beside the lock, for each class.
type namesResult struct {
	Counts   []int
	Acquires int
	Times    map[string]map[int][]time.Duration // by contender key, then count
}

// namesContenders are the classes of this project's lock measured.
var namesContenders = []Contender{paLinks, paNoLinks}

// measureNames times acquires in folders under base that hold each count of
// unrelated files (the sweep lists the folder at every acquire): acquires
// of each class, alternating links and no links, each acquire timed from
// the call to its return, the release outside the timing.
func measureNames(base string, counts []int, acquires int, progress func(string)) (*namesResult, error) {
	res := &namesResult{Counts: counts, Acquires: acquires, Times: map[string]map[int][]time.Duration{}}
	for _, c := range namesContenders {
		res.Times[c.Key] = map[int][]time.Duration{}
	}
	for _, count := range counts {
		progress(fmt.Sprintf("names: %d unrelated files", count))
		dir, err := os.MkdirTemp(base, "names-")
		if err != nil {
			return nil, err
		}
		err = namesRun(res, dir, count, acquires)
		_ = os.RemoveAll(dir)
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

func namesRun(res *namesResult, dir string, count, acquires int) error {
	for i := range count {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("unrelated-%06d.txt", i)), nil, 0o644); err != nil {
			return err
		}
	}
	insts := make([]Instance, len(namesContenders))
	for i, c := range namesContenders {
		inst, err := c.Open(dir)
		if err != nil {
			return err
		}
		defer inst.Close()
		insts[i] = inst
	}
	for i := range namesWarmup + acquires {
		for j, inst := range insts {
			start := time.Now()
			release, err := inst.Lock()
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("names, %d files, %s: %w", count, namesContenders[j].Name, err)
			}
			if err := release(); err != nil {
				return fmt.Errorf("names, %d files, %s: release: %w", count, namesContenders[j].Name, err)
			}
			if i >= namesWarmup {
				key := namesContenders[j].Key
				res.Times[key][count] = append(res.Times[key][count], d)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) != count {
		return fmt.Errorf("names, %d files: the folder holds %d names after the acquires, want %d (a lock or a name beside it left?)", count, len(entries), count)
	}
	return nil
}
