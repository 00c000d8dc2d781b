package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"
)

// handoffParams are the parameters of one of the two handoff processes.
type handoffParams struct {
	Key      string `json:"key"`
	Dir      string `json:"dir"`
	Shared   string `json:"shared"`   // the shared file (sharedPage)
	First    bool   `json:"first"`    // this process takes the lock first
	Handoffs int    `json:"handoffs"` // the handoffs to measure, both processes together
	Seed     uint64 `json:"seed"`
}

// handoffSample is one handoff as the acquiring process saw it.
type handoffSample struct {
	Seq int64         `json:"seq"` // its number, 1..Handoffs, taken from the shared page
	T   time.Duration `json:"t"`   // from just before the release call to the acquire's return
}

// handoffReport is a handoff process's last line.
type handoffReport struct {
	Samples []handoffSample `json:"samples"`
	Wait    time.Duration   `json:"wait"`    // its waits for the lock, added up
	WaitCPU time.Duration   `json:"waitCPU"` // its CPU time during them
}

// The bytes the two processes send each other through their pipes.
const (
	msgHeld = 'h' // "I hold the lock now": ask for it again
	msgStop = 's' // "that was the last handoff": release and end
)

// The random time a holder keeps the lock.
const (
	minHold = time.Millisecond
	maxHold = 10 * time.Millisecond
)

// handoffWorker is one of the two ping-pong processes (fd 3: the byte the
// peer sends when it holds the lock; fd 4: to the peer; fd 5: the start).
// The holder keeps the lock minHold..maxHold, stores t0 in the shared page,
// releases, and waits until the peer says it holds the lock before it asks
// again, so that every acquire is a handoff from the peer. The acquirer
// reads the monotonic clock when its acquire returns: the handoff is that
// minus t0.
func handoffWorker(raw []byte) error {
	var p handoffParams
	inst, err := workerInstance(raw, &p)
	if err != nil {
		return err
	}
	defer inst.Close()
	page, err := openShared(p.Shared)
	if err != nil {
		return err
	}
	defer page.close()
	in, out := os.NewFile(3, "from-peer"), os.NewFile(4, "to-peer")
	if err := say(ready{Ready: true}); err != nil {
		return err
	}
	if err := waitStart(os.NewFile(5, "start")); err != nil {
		return err
	}
	seed := p.Seed
	if p.First {
		seed++
	}
	rng := rand.New(rand.NewPCG(seed, uint64(os.Getpid())))
	send := func(b byte) error { _, err := out.Write([]byte{b}); return err }
	await := func() (byte, error) {
		b := make([]byte, 1)
		if _, err := in.Read(b); err != nil {
			return 0, fmt.Errorf("reading from the peer: %w", err)
		}
		return b[0], nil
	}
	var rep handoffReport
	var release func() error
	if p.First {
		release, err = inst.Lock() // not a handoff: the peer waits for it
	} else if _, err = await(); err == nil { // the peer holds it: ask
		release, err = rep.acquire(inst, page)
	}
	if err != nil {
		return err
	}
	for { // this process holds the lock
		if rep.last(p.Handoffs) {
			if err := send(msgStop); err != nil {
				return err
			}
			if err := release(); err != nil {
				return fmt.Errorf("release: %w", err)
			}
			break
		}
		if err := send(msgHeld); err != nil {
			return err
		}
		time.Sleep(minHold + time.Duration(rng.Int64N(int64(maxHold-minHold))))
		page.setT0(monoNow())
		if err := release(); err != nil {
			return fmt.Errorf("release: %w", err)
		}
		msg, err := await()
		if err != nil {
			return err
		}
		if msg == msgStop {
			break
		}
		if release, err = rep.acquire(inst, page); err != nil {
			return err
		}
	}
	return say(rep)
}

// acquire takes the lock from the peer, timing the handoff from the peer's
// t0 and this process's wait and CPU.
func (rep *handoffReport) acquire(inst Instance, page *sharedPage) (func() error, error) {
	w0, cpu0 := monoNow(), cpuNow()
	release, err := inst.Lock()
	t1 := monoNow()
	rep.Wait += time.Duration(t1 - w0)
	rep.WaitCPU += cpuNow() - cpu0
	if err != nil {
		return nil, err
	}
	rep.Samples = append(rep.Samples, handoffSample{Seq: page.nextSeq(), T: time.Duration(t1 - page.t0())})
	return release, nil
}

// last reports whether this process's last acquire was the last handoff.
func (rep *handoffReport) last(handoffs int) bool {
	n := len(rep.Samples)
	return n > 0 && rep.Samples[n-1].Seq >= int64(handoffs)
}
