package vfs

import "errors"

var errNotDir = errors.New("not a directory")

// ErrChanged is wrapped by a read that maps its file (the spawn-log's and
// the board's reads) when the file was cut short in place by another
// process while it was read.
var ErrChanged = errors.New("file cut short while it was read")
