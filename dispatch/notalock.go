package dispatch

import (
	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/locking"
)

// notALock is the [KindUnreadable] problem of a lock name lock that holds
// no regular file (h.Mode not 0: a directory, a symbolic link, a named
// pipe, a socket, a device): no writer's lock, so it is reported at once,
// whatever its age, since no `pa dispatch open` gets past it. Its Lock is
// h, whose Mode says what is there.
func notALock(agent, lock string, h locking.Holder) Problem {
	p := Problem{Kind: KindUnreadable, Agent: agent, Path: lock, Lock: h}
	if name, ok := filekind.Name(h.Mode); ok {
		p.Err = "it is " + name + ", not a lock"
	} else {
		p.Err = "it is not a regular file: not a lock"
	}
	return p
}
