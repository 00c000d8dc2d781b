package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// searched are the folders (slash paths from the module's root) whose
// non-test Go files a mutation is looked for in: the lock and everything
// under it, wherever its code moves inside them, and the formats and use
// cases whose restore after a power cut is pinned too.
var searched = []string{"locking", "internal", "vfs", "spawnlog", "board", "dispatch"}

// site is where a mutation applies: the file (a slash path from the
// module's root) that holds its old text, once.
type site struct {
	file string
}

// pkg is the site's package as a go command pattern ("./vfs/osfs").
func (s site) pkg() string { return "./" + path.Dir(s.file) }

// locate finds the one place of m: m.old inside the function or method
// m.fn ("name", or "Type.name" for a method, whatever the receiver's
// pointer or type parameters), in the non-test Go files under root's
// searched folders; with m.fn "", m.old anywhere in them. The function's
// name and the text are the mutation's whole target, not a line number or
// a file name, so the mutation still applies after its code moves to
// another file or package. A text found nowhere, or twice (in one function
// or in two files, for instance one per system), is an error that says
// where. A missing function reads as the text not found in it.
func locate(root string, m mutation) (site, error) {
	var found []string
	count := 0
	for _, dir := range searched {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) && p == filepath.Join(root, dir) {
					return filepath.SkipDir
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !bytes.Contains(data, []byte(m.old)) {
				return nil
			}
			n, err := countIn(p, data, m)
			if err != nil {
				return err
			}
			if n > 0 {
				rel, _ := filepath.Rel(root, p)
				found = append(found, filepath.ToSlash(rel))
				count += n
			}
			return nil
		})
		if err != nil {
			return site{}, err
		}
	}
	sort.Strings(found)
	where := strings.Join(searched, ", ")
	if m.fn != "" {
		where = "function " + m.fn + " under " + where
	}
	switch {
	case count == 0:
		return site{}, fmt.Errorf("%q is not in %s", m.old, where)
	case count > 1:
		return site{}, fmt.Errorf("%q is in %s %d times (%s); want once", m.old, where, count, strings.Join(found, ", "))
	}
	return site{file: found[0]}, nil
}

// countIn counts m.old in data (the file p): in the functions named m.fn,
// or in the whole file when m.fn is "".
func countIn(p string, data []byte, m mutation) (count int, err error) {
	if m.fn == "" {
		return bytes.Count(data, []byte(m.old)), nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, data, parser.SkipObjectResolution)
	if err != nil {
		return 0, err
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || funcKey(fd) != m.fn {
			continue
		}
		body := data[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset]
		count += bytes.Count(body, []byte(m.old))
	}
	return count, nil
}

// funcKey is fd's name as a mutation's fn gives it: "name" for a
// function, "Type.name" for a method.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
