package workspace

import (
	"os"
	"slices"
	"strings"
)

// DirEntry is one entry of a workspace directory.
type DirEntry struct {
	Name string
	// Dir is true for a directory (not for a symbolic link to one, as
	// os.DirEntry.IsDir).
	Dir bool
}

// ReadDir lists the directory rel ("" for the root) inside the workspace,
// every entry including hidden and default-excluded ones, sorted by name:
// for callers that need a directory as the filesystem has it (which
// modules isort counts as first party, which extension modules exist),
// not the scanned view ListFiles gives. The path is confined as every
// read is, and opened through an os.Root at the workspace.
func (w *Workspace) ReadDir(rel string) ([]DirEntry, error) {
	r, err := w.resolve(rel, rel, false)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(w.root)
	if err != nil {
		return nil, notFoundRoot(w.root, "cannot be opened")
	}
	defer root.Close()
	name := r.realRel
	if name == "" {
		name = "."
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, w.openError(rel, err)
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, w.openError(rel, err)
	}
	out := make([]DirEntry, len(ents))
	for i, e := range ents {
		out[i] = DirEntry{Name: e.Name(), Dir: e.IsDir()}
	}
	slices.SortFunc(out, func(a, b DirEntry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
