//go:build !unix

package incidentlog

import "os"

// AppendFlags are the os.OpenFile flags of [Append]: read-write (its last
// byte is read: tornTail), append, create.
const AppendFlags = os.O_RDWR | os.O_APPEND | os.O_CREATE
