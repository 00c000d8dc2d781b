// Package jsonscan is a hand-written reader of JSON values, the lexer of
// internal/jsondoc's fast path (the spawn-log's and the board's document;
// bench: Growth): it walks the bytes in place, allocating nothing, and
// answers only "this is the shape, with these values" or "not sure".
//
// It never decides an error. Every method returns ok false both for input
// that is not JSON and for JSON it does not take on (an escaped or non-ASCII
// key, a number with a fraction or an exponent where an integer is wanted,
// one that does not fit an int, nesting deeper than [MaxDepth]); the caller
// then hands the whole document to its exact parser (encoding/json), which
// decides what is wrong and says it. So what a Scanner accepts must be
// JSON exactly as encoding/json's scanner accepts it (the grammar of RFC
// 8259, strings with any byte from 0x20 up but '"' and '\', invalid UTF-8
// included), and the caller's fuzz tests check that its shapes agree with
// the exact parser on every input.
package jsonscan
