package conformance

import (
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/internal/lockspec"
)

// stepGate pauses the goroutine that reaches step the first time, until
// release is closed; reached is closed when it gets there. It orders events
// between goroutines of one process without a sleep.
type stepGate struct {
	step    lockspec.Step
	once    sync.Once
	reached chan struct{}
	release chan struct{}
}

func newGate(s lockspec.Step) *stepGate {
	return &stepGate{step: s, reached: make(chan struct{}), release: make(chan struct{})}
}

// at is an OnStep hook.
func (g *stepGate) at(s lockspec.Step) {
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

// await waits until a goroutine reaches the gate; it fails when that
// goroutine ends first (its result on done), or after the watchdog.
func (g *stepGate) await(t *testing.T, who string, done <-chan error) {
	t.Helper()
	select {
	case <-g.reached:
	case err := <-done:
		t.Fatalf("%s ended (%v) before it reached %s", who, err, g.step)
	case <-time.After(watchdog):
		t.Fatalf("%s did not reach %s in %s", who, g.step, watchdog)
	}
}
