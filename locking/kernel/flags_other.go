//go:build !unix

package kernel

import "os"

// appendFlags open the incident log for an append.
const appendFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
