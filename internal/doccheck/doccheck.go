package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// Missing is one exported identifier without a doc comment.
type Missing struct {
	File string // the file: relative to the module's root, slash-separated, under [Module]
	Line int    // the identifier's line in File, from 1
	What string // what it is: "func Unlock", "method Holder.Age", "field RefusedError.Lock"
}

// String is "FILE:LINE: WHAT".
func (m Missing) String() string { return fmt.Sprintf("%s:%d: %s", m.File, m.Line, m.What) }

// Module parses every non-test .go file under root (skipping folders named
// testdata and those starting with "." or "_", as the go tool does) and
// returns the exported identifiers that have no doc comment, sorted by
// file and line. What counts as exported and as documented is [File]'s. The
// error is the first file that cannot be read or parsed.
func Module(root string) ([]Missing, error) {
	var out []Missing
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		for _, m := range File(fset, f) {
			m.File = filepath.ToSlash(rel)
			out = append(out, m)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out, err
}

// File returns the exported identifiers of f that have no doc comment:
//
//   - top-level funcs, and methods whose receiver's type is exported;
//   - types; the fields of exported struct types and the methods of
//     exported interface types (a trailing line comment documents a
//     field or an interface method too);
//   - consts and vars: their own doc or trailing comment, or the doc of
//     the parenthesised group they are declared in.
//
// Embedded fields are not names of their own and are skipped. Each
// Missing's File is the file's name as fset records it.
func File(fset *token.FileSet, f *ast.File) []Missing {
	var out []Missing
	add := func(pos token.Pos, format string, args ...any) {
		p := fset.Position(pos)
		out = append(out, Missing{File: p.Filename, Line: p.Line, What: fmt.Sprintf(format, args...)})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			what := "func " + d.Name.Name
			if d.Recv != nil {
				recv := receiverType(d.Recv)
				if !ast.IsExported(recv) {
					continue
				}
				what = "method " + recv + "." + d.Name.Name
			}
			if d.Doc == nil {
				add(d.Pos(), "%s", what)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if s.Doc == nil && s.Comment == nil && (d.Doc == nil || d.Lparen.IsValid()) {
						add(s.Pos(), "type %s", s.Name.Name)
					}
					members(s, add)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						// d.Doc is the doc of a lone declaration or of its group.
						if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
							add(n.Pos(), "%s %s", d.Tok, n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// members reports the undocumented fields of an exported struct type and
// the undocumented methods of an exported interface type.
func members(s *ast.TypeSpec, add func(token.Pos, string, ...any)) {
	var list *ast.FieldList
	kind := "field"
	switch t := s.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list, kind = t.Methods, "interface method"
	default:
		return
	}
	for _, fld := range list.List {
		if fld.Doc != nil || fld.Comment != nil {
			continue
		}
		for _, n := range fld.Names {
			if n.IsExported() {
				add(n.Pos(), "%s %s.%s", kind, s.Name.Name, n.Name)
			}
		}
	}
}

// receiverType is the name of a method's receiver type, without a pointer
// or type parameters.
func receiverType(recv *ast.FieldList) string {
	if len(recv.List) == 0 {
		return ""
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
