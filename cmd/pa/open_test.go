package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// The lines of `pa dispatch open` for a lost lock (row R24 and a writer
// fenced out until its wait ran out): exit 2, one line leading with the
// lock, naming the dispatch id or the holder now, and the whole agent.
func TestOpenErrorLines(t *testing.T) {
	live := locktest.LivePID(t)
	e := estatetest.New(t, estatetest.Classes[0])
	for _, agent := range []string{"demo", "-dash"} {
		lost := &board.NotOnBoardError{Agent: agent, DispatchID: 7, Err: locking.ErrLockLost}
		err := openError(e.FS, agent, time.Second, lost, locking.Options{})
		var ee *exitError
		want := fmt.Sprintf("agents/%s/spawn-log.json.lock was lost before the board write: dispatch 7 is in the spawn-log but not on the board; pa board check %s names it",
			agent, board.AgentFlag(agent))
		if !errors.As(err, &ee) || ee.code != exitProblem || ee.msg != want {
			t.Errorf("R24 line for %s: %v; want exit 2 and %q", agent, err, want)
		}
	}

	// Fenced out until the wait ran out, with a live holder now.
	estatetest.WriteFile(t, e.Dir, "agents/demo/spawn-log.json.lock", lockJSON(live, hostname(), time.Now()))
	err := openError(e.FS, "demo", time.Second, fmt.Errorf("x: %w", locking.ErrLockLost), locking.Options{})
	var ee *exitError
	lead := fmt.Sprintf("agents/demo/spawn-log.json.lock held by pid %d ", live)
	if !errors.As(err, &ee) || ee.code != exitProblem || !strings.HasPrefix(ee.msg, lead) ||
		!strings.Contains(ee.msg, "pa dispatch unlock --force --agent demo, "+forceWhen) {
		t.Errorf("lost-lock line: %v; want exit 2 leading with %q and naming --force", err, lead)
	}
}
