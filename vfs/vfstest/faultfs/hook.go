package faultfs

// Event is one call of an operation, as a [Hook] sees it.
type Event struct {
	// Op is the operation.
	Op Op
	// Name is the name the call acts on: the file's name as given to
	// OpenFile for Read, Write, Sync and Close; the old name for Link and
	// Rename.
	Name string
	// NewName is the new name of Link and Rename, empty otherwise.
	NewName string
	// Flag is OpenFile's os.O_* flags (O_CREATE|O_EXCL for an exclusive
	// create), 0 for every other operation.
	Flag int
	// Err is the result of the call so far; After hooks only.
	Err error
}

// Hook is called on the calling goroutine, before or after an operation. It
// may block: that pauses the call until it returns. A non-nil error makes the
// call fail with it (wrapped as a [Rule]'s error is).
type Hook func(ev Event) error

// Before adds h after the Before hooks already added. Before hooks run ahead
// of the rules, so a rule added while a hook holds a call back applies to
// that call.
func (f *FS) Before(h Hook) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.before = append(f.before[:len(f.before):len(f.before)], h)
}

// After adds h after the After hooks already added. Each sees in ev.Err the
// result so far: the operation's, or the error injected by a hook or rule,
// or the error of an earlier After hook.
func (f *FS) After(h Hook) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after = append(f.after[:len(f.after):len(f.after)], h)
}

// hooks returns the hooks as they are now; the slices are never changed in
// place, so the caller runs them without the lock.
func (f *FS) hooks() (before, after []Hook) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.before, f.after
}
