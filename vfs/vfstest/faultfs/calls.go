package faultfs

import (
	"fmt"
	"path"
)

// call is one distinct (op, names) a count is kept for.
type call struct {
	op            Op
	name, newName string
}

// Calls returns how many calls of op matched match so far, failed ones and
// ones still running included. match is tested as [Rule.Match] is; empty
// matches every name. Calls panics when match is not a valid path.Match
// pattern.
func (f *FS) Calls(op Op, match string) int {
	if _, err := path.Match(match, ""); err != nil {
		panic(fmt.Sprintf("faultfs: Calls: pattern %q: %v", match, err))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for c, count := range f.calls {
		if c.op == op && matchCall(match, op, c.name, c.newName) {
			n += count
		}
	}
	return n
}

func (f *FS) count(op Op, name, newName string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[call{op, name, newName}]++
}
