//go:build !unix

package vfs

import "os"

// ReadFlags are the flags [ReadFile] opens a file with: read-only (this
// system has no FIFOs to guard against).
const ReadFlags = os.O_RDONLY
