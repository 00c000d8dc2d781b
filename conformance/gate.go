package conformance

import (
	"sync"

	"github.com/pa-toolkit/pa/locking"
)

// stepGate pauses the goroutine that reaches step the first time, until
// release is closed; reached is closed when it gets there. It orders events
// between goroutines of one process without a sleep.
type stepGate struct {
	step    locking.Step
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func newGate(s locking.Step) *stepGate {
	return &stepGate{step: s, reached: make(chan struct{}), release: make(chan struct{})}
}

// at is an OnStep hook.
func (g *stepGate) at(s locking.Step) {
	if s != g.step {
		return
	}
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.reached)
		<-g.release
	}
}

// open lets the paused goroutine go on (once).
func (g *stepGate) open() {
	select {
	case <-g.release:
	default:
		close(g.release)
	}
}
