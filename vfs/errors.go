package vfs

import "errors"

var errNotDir = errors.New("not a directory")
