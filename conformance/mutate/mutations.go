package main

// mutation is one named one-line change to the lock: in file (under
// locking/), the line that holds old, exactly once, gets old replaced by
// new. Each removes or weakens one guard of the spec; the suite must fail.
type mutation struct {
	name string
	file string
	old  string
	new  string
}

// mutations are the guards the suite must pin (issue 3: guards pinned by
// mutations), then a few more of the kill rows' own guards.
var mutations = []mutation{
	{"drop the fence", "hold.go",
		`if cur.State == StateUnreadable || cur.Token != h.token {`,
		`if false && cur.Token != h.token {`},
	{"drop the same-host check", "holder.go",
		`case rec.hasHostname && rec.hostname != e.host.Hostname():`,
		`case false:`},
	{"read EPERM from kill as dead", "alive_unix.go",
		`return err == nil || errors.Is(err, unix.EPERM)`,
		`return err == nil || errors.Is(err, unix.EPERM) && false`},
	{"break a live lock past the stale window (age)", "holder.go",
		`case e.host.Alive(rec.pid):`,
		`case e.host.Alive(rec.pid) && h.Age <= DefaultStaleWindow:`},
	{"skip the folder listing after a claim", "break.go",
		`entries, err := fsys.ReadDir(n.dir)`,
		`entries, err := []fs.DirEntry(nil), error(nil)`},
	{"confirm without the bytes check", "break.go",
		`if !sameLock(current, judged) || mode != breakForce && current.State != StateDead {`,
		`if mode != breakForce && current.State != StateDead {`},
	{"put back with a create that is not exclusive (no hard links)", "putback.go",
		`f, err := fsys.OpenFile(n.lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)`,
		`f, err := fsys.OpenFile(n.lock, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)`},
	{"put back with a rename that is not exclusive (hard links)", "putback.go",
		`err := fsys.Link(moved, n.lock)`,
		`err := fsys.Rename(moved, n.lock)`},
	{"release by unlinking the lock name", "hold.go",
		`if err := fsys.Rename(n.lock, moved); err != nil {`,
		`if err := fsys.Remove(n.lock); true { if errors.Is(err, fs.ErrNotExist) { return ErrLockLost }; return err }; if err := fsys.Rename(n.lock, moved); err != nil {`},
	{"sweep a leftover whose owner is alive", "sweep.go",
		`return !e.host.Alive(o.pid)`,
		`return true`},
	{"sweep by age", "sweep.go",
		`if !e.ownerDead(o, n) {`,
		`if fi, err := de.Info(); err == nil && fi.ModTime().Add(3600e9).Before(e.now()) { _ = fsys.Remove(name); continue }; if !e.ownerDead(o, n) {`},
	{"treat ENOENT from link as no hard links", "acquire.go",
		`case errors.Is(lerr, fs.ErrNotExist):`,
		`case false && errors.Is(lerr, fs.ErrNotExist):`},
	{"reuse one attempt token across attempts", "names.go",
		`func (e *env) newAttempt() (string, error) { return randomHex(e.rand, 12) }`,
		`func (e *env) newAttempt() (string, error) { return fixedAttempt, nil }; var fixedAttempt, _ = randomHex(Options{}.env().rand, 12)`},
	{"drop the retry after a lost lock", "update.go",
		`			continue`,
		`			return err`},
	{"commit without re-reading the lock at the fence", "hold.go",
		`cur, err := h.e.readLock(h.fsys, h.n.lock)`,
		`cur, err := Holder{State: StateAlive, Token: h.token}, error(nil)`},
	{"remove the moved file without checking its bytes (break)", "break.go",
		`same, err := e.movedIs(fsys, moved, func(h Holder) bool { return sameLock(h, judged) })`,
		`same, err := true, error(nil)`},
	{"remove the moved file without checking its bytes (release)", "hold.go",
		`own, err := e.movedIs(fsys, moved, func(m Holder) bool { return bytes.Equal(m.data, h.content) })`,
		`own, err := true || bytes.Equal(nil, nil), error(nil)`},
	{"skip the sweep", "acquire.go",
		`e.sweep(fsys, n) // step 1`,
		`_ = n.dir // no sweep`},
	{"never break a dead holder", "acquire.go",
		`if held.State == StateDead {`,
		`if false {`},
	{"drop a moved lock instead of putting it back", "putback.go",
		`if err := e.putBackCreate(fsys, n, cls, moved, opened); err != nil {`,
		`if err := error(nil); err != nil {`},
	{"let a breaker go on past another's live claim", "break.go",
		`if mode == breakForce {`,
		`if true {`},
}
