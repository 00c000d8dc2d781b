package locking_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The README's library example is the first ```go block of README.md, and
// it is the function increment of example_readme_test.go, doc comment
// included, byte for byte: that file's Example runs it, so the README's
// snippet compiles and works, and the two cannot drift apart.
func TestREADMELibraryExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	snippet, ok := firstGoBlock(string(readme))
	if !ok {
		t.Fatal("README.md has no ```go block: its library example is the function increment of locking/example_readme_test.go")
	}
	const file = "example_readme_test.go"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var code string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "increment" && fn.Doc != nil {
			code = string(src[fset.Position(fn.Doc.Pos()).Offset:fset.Position(fn.End()).Offset]) + "\n"
		}
	}
	if code == "" {
		t.Fatalf("%s has no documented function increment, the README's library example", file)
	}
	if snippet != code {
		t.Errorf("README.md's first ```go block is not the function increment of locking/%s: make them the same (the test file's is the one that compiles)\nREADME.md:\n%s\n%s:\n%s", file, snippet, file, code)
	}
}

// firstGoBlock returns the text of the first block of md fenced by a line
// "```go" and a line "```", each of its lines ending in "\n".
func firstGoBlock(md string) (string, bool) {
	_, after, ok := strings.Cut(md, "\n```go\n")
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		return "", false
	}
	return body + "\n", true
}

// The README's increment does what its text says, every time (an example
// runs once whatever -count says; this test runs as often as asked): eight
// goroutines at once, each with a file system of its own, lose no update
// and leave nothing beside the counter; a counter that is not a number
// fails the update and is left byte for byte.
func TestREADMEIncrement(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if err := increment(context.Background(), dir); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	b, err := os.ReadFile(filepath.Join(dir, "counter"))
	if err != nil || string(b) != "8" {
		t.Fatalf("counter after 8 increments: %q, %v; want \"8\"", b, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Errorf("the folder holds %d entries (%v); want the counter alone", len(entries), err)
	}

	if err := os.WriteFile(filepath.Join(dir, "counter"), []byte("eight"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = increment(context.Background(), dir)
	if _, ok := err.(*strconv.NumError); !ok {
		t.Errorf("increment of a counter that is not a number = %v; want the *strconv.NumError of Atoi", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "counter")); string(b) != "eight" {
		t.Errorf("the counter that is not a number became %q; want it left as it was", b)
	}
}
