package main

import "strings"

// mutation is one named one-line change to the lock: in file (under
// locking/, or a slash path from the module's root when it holds a slash),
// the line that holds old, exactly once, gets old replaced by new. Each
// removes or weakens one guard of the spec; the suite must fail.
type mutation struct {
	name string
	file string
	old  string
	new  string
}

// path is m's file as a slash path from the module's root.
func (m mutation) path() string {
	if strings.Contains(m.file, "/") {
		return m.file
	}
	return "locking/" + m.file
}

// mutations are the guards the suite must pin (issue 3: guards pinned by
// mutations), then more guards, so that every row's cells turn red under
// some mutation.
var mutations = []mutation{
	{"drop the fence", "hold.go",
		`if lf.irregular != nil || cur.State == StateUnreadable || cur.Token != h.token {`,
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
		`entries, err := vfs.ReadDirPrefix(fsys, n.dir, []string{prefix})`,
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
		`lf, err := readLockBytes(h.fsys, h.n.lock)`,
		`lf, err := lockFile{data: h.content}, error(nil)`},
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
	{"break a live holder", "holder.go",
		`case e.host.Alive(rec.pid):`,
		`case false && e.host.Alive(rec.pid):`},
	{"break an empty or unreadable lock", "holder.go",
		`h.State = StateUnreadable`,
		`h.State = StateDead`},
	{"remove the lock name after a failed publish (no hard links)", "acquire.go",
		`if werr != nil || cerr != nil {`,
		`if werr != nil || cerr != nil { _ = fsys.Remove(n.lock)`},
	{"remove the lock name after a failed pending write (hard links)", "pending.go",
		"if n, err := f.Write(content); err != nil || n != len(content) {\n\t\t_ = h.dropPending()",
		"if n, err := f.Write(content); err != nil || n != len(content) {\n\t\t_ = h.dropPending(); _ = h.fsys.Remove(h.n.lock)"},
	{"unlock sweeps the folder", "unlock.go",
		`n := e.names(name)`,
		`n := e.names(name); e.sweep(fsys, n)`},
	{"unlock refuses a dead holder", "unlock.go",
		`if judged.State != StateDead {`,
		`if true {`},
	{"publish by an exclusive create where link() works", "acquire.go",
		`if h.cls != classNoLinks {`,
		`if false {`},
	// The wake-up (spec: Acquire step 3; docs/spawn-log-lock.md, The
	// wake-up): nothing safe depends on it, but a release must never be
	// missed. (That the poll stays is pinned by
	// TestDeadHolderFoundByThePoll; as a mutation it would cost minutes of
	// waits run out.)
	{"arm the watch only at the wait, after the read of step 3", "acquire.go",
		`woken, err := w.wait(ctx, time.Until(deadline), held.Token)`,
		`w.close(); w.arm(); woken, err := w.wait(ctx, time.Until(deadline), held.Token)`},
	{"arm once per acquire, though a watch may be on the file a former holder held", "wait.go",
		`if w.watch != nil && w.keep {`,
		`if w.watch != nil {`},
	// The per-inode watch of osfs on Linux: the lock file itself, so the
	// other names of the folder wake no waiter.
	{"watch the lock's folder, not the lock file (Linux)", "vfs/osfs/watch_linux.go",
		`if w, err := watchFile(d, base); err == nil {`,
		`if w, err := watchFile(d, base); err == nil && false {`},
	{"add the lock file's watch without looking its name up again (Linux)", "vfs/osfs/watch_linux.go",
		`if w.leftAt(dfd) {`,
		`if false && w.leftAt(dfd) {`},
	{"a rename of the watched lock file waits for a lookup (Linux)", "vfs/osfs/watch_linux.go",
		`if w.gone.Load() || w.moved.Load() || w.left() {`,
		`if w.gone.Load() || w.left() {`},
	{"any event of the watched lock file wakes with no lookup (Linux)", "vfs/osfs/watch_linux.go",
		`if mask&unix.IN_MOVE_SELF != 0 {
					w.moved.Store(true)`,
		`if mask != 0 {
					w.moved.Store(true)`},
	// The wait queue (vfs.QueueFS): one waiter at a time watches and
	// reads at the poll; the others wait in the queue, with a slow poll.
	{"every waiter watches and polls, as with no queue", "queue.go",
		`func (w *waiter) queued() bool { return w.place != nil && !w.head }`,
		`func (w *waiter) queued() bool { return false }`},
	{"no slow poll behind the head of the queue", "queue.go",
		`head, err := w.place.Wait(ctx, min(left, queuePolls*w.poll))`,
		`head, err := w.place.Wait(ctx, left)`},
	{"the head never leaves the queue", "wait.go",
		`w.leave() // the head lets the next waiter up`,
		``},
	{"a queue that fails keeps its waiter in it", "queue.go",
		`	w.leave()
	return false, nil`,
		`	return true, nil`},
	{"the woken head reads before it publishes", "acquire.go",
		`publish = woken && w.head`,
		`publish = false && woken`},
	{"an abandoned place in the queue keeps its descriptor", "vfs/osfs/queue_unix.go",
		`unix.Close(p.fd) // lets the lock go, if taken`,
		``},
	{"a place in the queue shares the folder's descriptor (and its lock)", "vfs/osfs/queue_unix.go",
		`unix.Openat(int(dfd), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)`,
		`unix.Dup(int(dfd))`},
	// The pending file a waiter keeps through its wait (locking/pending.go).
	{"keep the pending file through a break", "acquire.go",
		`_ = h.dropPending()
			out, err := e.breakLock(`,
		`out, err := e.breakLock(`},
	{"leave the kept pending file when the acquire ends", "acquire.go",
		`defer h.dropPending() // a pending file kept through a wait (pending.go)`,
		``},
	{"link the kept pending file without rewriting it", "pending.go",
		`n, err := p.at.WriteAt(content, 0)`,
		`n, err := len(content), error(nil)`},
	{"rewrite the kept pending file in place with a record of another length", "pending.go",
		`p != nil && p.at != nil && p.size == len(content) {`,
		`p != nil && p.at != nil {`},
	{"fail the acquire when the kept pending name was removed during the wait", "acquire.go",
		`if kept {`,
		`if kept && false {`},
	{"forget that a rewrite in place was refused", "pending.go",
		`		h.noInPlace = true`,
		`		_ = 0`},
	{"keep a pending file open after a refused rewrite in place", "pending.go",
		`if h.noInPlace {
		at = nil`,
		`if false {
		at = nil`},
	{"link a pending file that cannot be rewritten while still open", "pending.go",
		`if at == nil {
		if err := h.closePending()`,
		`if false {
		if err := h.closePending()`},
	{"link a pending file rewritten short", "pending.go",
		`if err == nil && n != len(content) {
			err = io.ErrShortWrite`,
		`if err == nil && n < 0 {
			err = io.ErrShortWrite`},
	{"link a pending file written short", "pending.go",
		`if n, err := f.Write(content); err != nil || n != len(content) {`,
		`if n, err := f.Write(content); err != nil || n < 0 {`},
	{"remove the pending file's name while it is open", "pending.go",
		`_ = h.closePending()
	h.pending = nil`,
		`defer h.closePending()
	h.pending = nil`},
	{"hold a lock linked from a pending file whose close failed", "acquire.go",
		`if cerr != nil {`,
		`if false {`},
	{"the fast record parse takes an escaped string as it is", "recordown.go",
		`&& rest[i] != '\\' {`,
		`{`},
	{"the fast record parse takes raw control characters", "recordown.go",
		`rest[i] >= 0x20 && rest[i] < 0x7f`,
		`rest[i] < 0x7f`},
	{"the fast record parse takes bytes above ASCII", "recordown.go",
		`rest[i] >= 0x20 && rest[i] < 0x7f`,
		`rest[i] >= 0x20`},
	{"the fast record parse reads a pid of any length", "recordown.go",
		`if digits == 10 {`,
		`if digits == 100 {`},
	// Found by review: guards no mutation covered.
	{"any Unicode space may follow a lock's object (not only JSON's)", "record.go",
		`if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 {`,
		`if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {`},
	{"a lock with a key twice is judged by the last copy", "record.go",
		`if !keysOnce(data) {`,
		`if false && !keysOnce(data) {`},
	{"only a pid key twice makes a lock unreadable, not any key", "record.go",
		`if err != nil || !isKey || seen[key] {`,
		`if err != nil || !isKey || seen[key] && key == "pid" {`},
	{"the confirm compares size and bytes only, not the kind of file", "read.go",
		`return a.Size == b.Size && a.Mode == b.Mode && bytes.Equal(a.data, b.data)`,
		`return a.Size == b.Size && bytes.Equal(a.data, b.data)`},
	{"a lock of any length is judged by its start", "holder.go",
		`if !ok || size > maxLockBytes {`,
		`if !ok {`},
	{"an untyped entry whose lstat fails is left out of the listing", "vfs/osfs/readdir_linux.go",
		`if err == unix.ENOENT {`,
		`if err != nil {`},
}
