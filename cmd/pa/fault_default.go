//go:build !pafault

package main

import (
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// faultFS is the identity: the shipped pa has no fault injection (see
// fault_pafault.go for the test build).
func faultFS(fsys vfs.FS) (vfs.FS, error) { return fsys, nil }

// faultStep is nil: the shipped pa sets no step hook.
func faultStep() (func(lockspec.Step), error) { return nil, nil }
