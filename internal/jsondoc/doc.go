// Package jsondoc is the one document the spawn-log and the board are: a
// JSON object with a version, at most one more integer in its header, and
// an array of objects, each keyed by an integer field,
//
//	{"version":1,"nextId":3,"records":[{"id":1,...},{"id":2,...}]}
//
// A [Format] names the keys and an element's fields; each format package
// keeps its own write (its encode) and its own errors.
//
// Two paths read a document. The plain path (plain.go) is encoding/json,
// which decides every error and its message, and one check of its own: a
// key of the top level given twice is refused (dupkeys.go), where
// encoding/json would keep the last and a rewrite lose the first. The fast path (fast.go and
// split.go, one seam: [Parse] and [Prepare] try it first) reads the common
// shape as pa writes it by hand, with internal/jsonscan's lexer, two halves
// of a large array at once, and writes an append as a splice of the bytes
// read; it never decides an error, and whatever it takes the plain path
// takes with the same result (FuzzFastPathLog, FuzzFastPathBoard). [Read]
// maps the file where the FS can.
package jsondoc
