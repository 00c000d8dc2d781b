package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// checkHandoffs checks the samples of one handoff run: the numbers 1..want
// each exactly once, the odd ones taken by the second process and the even
// ones by the first (the first took the lock before number 1), so that
// every acquire was a handoff from the other process. It returns the
// samples' times in handoff order.
func checkHandoffs(first, second []handoffSample, want int) ([]time.Duration, error) {
	times := make([]time.Duration, want)
	seen := make([]bool, want+1)
	for who, samples := range [][]handoffSample{first, second} {
		for _, s := range samples {
			if s.Seq < 1 || s.Seq > int64(want) {
				return nil, fmt.Errorf("handoff check failed: handoff number %d, want 1..%d", s.Seq, want)
			}
			if seen[s.Seq] {
				return nil, fmt.Errorf("handoff check failed: handoff %d taken twice", s.Seq)
			}
			seen[s.Seq] = true
			if byFirst := s.Seq%2 == 0; byFirst != (who == 0) {
				return nil, fmt.Errorf("handoff check failed: handoff %d was taken by the process that released it", s.Seq)
			}
			if s.T < 0 {
				return nil, fmt.Errorf("handoff check failed: handoff %d took %s, before its release", s.Seq, s.T)
			}
			times[s.Seq-1] = s.T
		}
	}
	if missing := slices.Index(seen[1:], false); missing >= 0 {
		return nil, fmt.Errorf("handoff check failed: handoff %d of %d missing", missing+1, want)
	}
	return times, nil
}

// handoffRound is one handoff run of one contender.
type handoffRound struct {
	Times   []time.Duration // each handoff, in order
	Wait    time.Duration   // both processes' waits, added up
	WaitCPU time.Duration   // their CPU while waiting
}

// handoffRun runs one handoff round of c in a fresh folder under base: two
// processes ping-pong the lock handoffs times.
func handoffRun(c Contender, base string, handoffs int, seed uint64) (handoffRound, error) {
	dir, err := os.MkdirTemp(base, "handoff-"+c.Key+"-")
	if err != nil {
		return handoffRound{}, err
	}
	defer os.RemoveAll(dir)
	shared := filepath.Join(dir, "shared.page")
	if err := createShared(shared); err != nil {
		return handoffRound{}, err
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		return handoffRound{}, err
	}
	var files []*os.File
	pipe := func() (*os.File, *os.File) {
		r, w, perr := os.Pipe()
		if perr != nil && err == nil {
			err = perr
		}
		files = append(files, r, w)
		return r, w
	}
	to0r, to0w := pipe()
	to1r, to1w := pipe()
	startR, startW := pipe()
	closeAll := func() {
		for _, f := range files {
			if f != nil {
				_ = f.Close()
			}
		}
	}
	defer closeAll()
	if err != nil {
		return handoffRound{}, err
	}
	var children []*child
	fail := func(err error) (handoffRound, error) {
		closeAll()
		killAll(children)
		return handoffRound{}, fmt.Errorf("handoff %s: %w", c.Name, err)
	}
	for i, fds := range [][3]*os.File{{to0r, to1w, startR}, {to1r, to0w, startR}} {
		ch, err := startChild(roleHandoff, handoffParams{Key: c.Key, Dir: data, Shared: shared, First: i == 0, Handoffs: handoffs, Seed: seed}, fds[:]...)
		if err != nil {
			return fail(err)
		}
		children = append(children, ch)
	}
	for _, f := range []*os.File{to0r, to0w, to1r, to1w, startR} {
		_ = f.Close() // the children have them; EOF reaches a peer that dies
	}
	for _, ch := range children {
		var r ready
		if err := ch.next(&r, time.Minute); err != nil {
			return fail(err)
		}
	}
	_ = startW.Close()
	var reps [2]handoffReport
	for i, ch := range children {
		if err := ch.next(&reps[i], 10*time.Minute); err != nil {
			return fail(err)
		}
	}
	for _, ch := range children {
		if err := ch.wait(); err != nil {
			return fail(err)
		}
	}
	times, err := checkHandoffs(reps[0].Samples, reps[1].Samples, handoffs)
	if err != nil {
		return fail(err)
	}
	return handoffRound{Times: times, Wait: reps[0].Wait + reps[1].Wait, WaitCPU: reps[0].WaitCPU + reps[1].WaitCPU}, nil
}

// handoffResult is the handoff measure: each contender's rounds.
type handoffResult struct {
	PerRound int
	Rounds   map[string][]handoffRound
}

// handoffContenders are the locks whose handoff is measured.
var handoffContenders = []Contender{paLinks, paNoLinks, paKernel, gofrsFlock, goLockedfile, nightlyone}

// measureHandoff runs rounds of handoffs per contender in base, interleaved.
func measureHandoff(base string, perRound, rounds int, progress func(string)) (*handoffResult, error) {
	if perRound < 1 {
		return nil, errors.New("handoff: want at least one handoff a round")
	}
	res := &handoffResult{PerRound: perRound, Rounds: map[string][]handoffRound{}}
	for r := range rounds {
		for _, c := range rotate(handoffContenders, r) {
			progress(fmt.Sprintf("handoff: round %d/%d, %s", r+1, rounds, c.Name))
			round, err := handoffRun(c, base, perRound, uint64(r))
			if err != nil {
				return nil, err
			}
			res.Rounds[c.Key] = append(res.Rounds[c.Key], round)
		}
	}
	return res, nil
}
