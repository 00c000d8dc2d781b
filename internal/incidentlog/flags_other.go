//go:build !unix

package incidentlog

import "os"

// AppendFlags are the os.OpenFile flags of [Append]: write-only, append,
// create.
const AppendFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
