package faultfs

import (
	"errors"
	"fmt"
	"path"
	"syscall"
)

// Rule makes matching calls of one operation fail, or, with Drop, report
// success without running.
type Rule struct {
	// Op is the operation that fails.
	Op Op
	// Match is a path.Match pattern tested against the full slash-separated
	// name and against its last element; either matching counts. For Link
	// and Rename it is tested against both names. Empty matches every name.
	Match string
	// Err is the error a matching call fails with: as it is when it is a
	// *fs.PathError or *os.LinkError, wrapped in one otherwise. Nil means
	// syscall.EIO.
	Err error
	// Times is how many matching calls fail, the first ones; 0 means every
	// one.
	Times int
	// Drop makes a matching call return nil without reaching the wrapped
	// file system, instead of failing with Err: a disk that acknowledges a
	// flush it does not do. It is allowed for [OpSync] only (the benchmark
	// of the commit's syncs drops one kind of sync at a time).
	Drop bool
}

// errDropped is what fault returns for a call a Drop rule matches: begin
// passes it on and do turns it into success without running the call.
var errDropped = errors.New("faultfs: dropped")

// rule is a Rule and the failures it has left; left < 0 means always.
type rule struct {
	Rule
	left int
}

// Fail adds r after the rules already added; a call fails by the first rule
// that matches it. Fail panics when r.Op is not one of the Op constants,
// r.Match is not a valid path.Match pattern, or r.Times is negative: those
// are mistakes in the test, and when r.Drop is set for an Op other than
// OpSync.
func (f *FS) Fail(r Rule) {
	if !r.Op.valid() {
		panic(fmt.Sprintf("faultfs: Fail: unknown %v", r.Op))
	}
	if _, err := path.Match(r.Match, ""); err != nil {
		panic(fmt.Sprintf("faultfs: Fail: pattern %q: %v", r.Match, err))
	}
	if r.Times < 0 {
		panic(fmt.Sprintf("faultfs: Fail: Times %d is negative", r.Times))
	}
	if r.Drop && r.Op != OpSync {
		panic(fmt.Sprintf("faultfs: Fail: Drop on %v: only a sync can be dropped", r.Op))
	}
	if r.Err == nil {
		r.Err = syscall.EIO
	}
	left := r.Times
	if left == 0 {
		left = -1
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &rule{Rule: r, left: left})
}

// Clear removes every rule and every hook. The call counts stay.
func (f *FS) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = nil
	f.before = nil
	f.after = nil
}

// fault returns the error of the first rule that matches a call of op on
// name (and newName), and uses up one of its failures; nil when none
// matches.
func (f *FS) fault(op Op, name, newName string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.Op != op || !matchCall(r.Match, op, name, newName) {
			continue
		}
		if r.left > 0 {
			r.left--
			if r.left == 0 {
				f.rules = append(f.rules[:i:i], f.rules[i+1:]...)
			}
		}
		if r.Drop {
			return errDropped
		}
		return r.Err
	}
	return nil
}

func matchCall(pattern string, op Op, name, newName string) bool {
	return matchName(pattern, name) || (op.twoNames() && matchName(pattern, newName))
}

// matchName reports whether pattern matches name or its last element. The
// pattern was checked by Fail.
func matchName(pattern, name string) bool {
	if pattern == "" {
		return true
	}
	if ok, _ := path.Match(pattern, name); ok {
		return true
	}
	ok, _ := path.Match(pattern, path.Base(name))
	return ok
}
