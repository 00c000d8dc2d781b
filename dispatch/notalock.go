package dispatch

import (
	"fmt"
	"io/fs"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/locking"
)

// notALock is the [KindUnreadable] problem of a lock name lock that holds
// no regular file (h.Mode not 0: a directory, a symbolic link, a named
// pipe, a socket, a device): no writer's lock, so it is reported at once,
// whatever its age, since no `pa dispatch open` gets past it. Its Command
// is the one that removes it, `pa dispatch unlock --force` (a link, never
// its target), except for a directory, which no unlock removes: none then.
func notALock(home, agent, lock string, h locking.Holder) Problem {
	p := Problem{Kind: KindUnreadable, Agent: agent, Path: lock, holder: h}
	if name, ok := filekind.Name(h.Mode); ok {
		p.Err = "it is " + name + ", not a lock"
	} else {
		p.Err = "it is not a regular file: not a lock"
	}
	if h.Mode&fs.ModeDir == 0 {
		p.Command = UnlockCommand(home, agent, h)
	}
	return p
}

// notALockLine is the line of a [notALock] problem, in the words of the
// other unreadable lines and of `pa dispatch unlock`'s refusal of a
// directory: what is there, then what to do, naming the whole command
// (its Command) and why --force is safe there.
func notALockLine(p Problem) string {
	what := fmt.Sprintf("%s cannot be read: %s", estate.Display(p.Agent, p.Path), p.Err)
	switch {
	case p.holder.Mode&fs.ModeDir != 0:
		return what + "; no pa dispatch unlock removes a directory: look at it and remove it by hand"
	case p.holder.Mode&fs.ModeSymlink != 0:
		return what + "; look at it, then remove it by hand or with " + p.Command + " (the link, never its target; it is no writer's lock, so no holder can lose it)"
	}
	return what + "; look at it, then remove it by hand or with " + p.Command + " (it is no writer's lock, so no holder can lose it)"
}
