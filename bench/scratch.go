package main

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// scratch is the folders a run makes, removed at its end, and also when the
// run is interrupted (SIGINT, SIGTERM): a benchmark leaves nothing behind.
type scratch struct {
	mu   sync.Mutex
	dirs []string
}

// mkdir makes a fresh folder under parent and keeps it for removal.
func (s *scratch) mkdir(parent string) (string, error) {
	d, err := os.MkdirTemp(parent, "pa-bench-")
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.dirs = append(s.dirs, d)
	s.mu.Unlock()
	return d, nil
}

// remove removes every folder made so far.
func (s *scratch) remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.dirs {
		_ = os.RemoveAll(d)
	}
	s.dirs = nil
}

// removeOnSignal removes the folders and exits 130 when the run is
// interrupted; the workers end with it (workerAttr). The returned stop
// ends the watch.
func (s *scratch) removeOnSignal() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			s.remove()
			os.Stderr.WriteString("bench: interrupted; its folders are removed\n")
			os.Exit(130)
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}
