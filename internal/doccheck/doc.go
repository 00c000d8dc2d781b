// Package doccheck finds exported identifiers without a doc comment in the
// Go files of a module (the standard every package here keeps: every
// exported identifier has a doc comment). Its test runs it on this module,
// so an undocumented identifier fails `go test ./...`.
package doccheck
