package sdk

import (
	"github.com/pyws/pyws/plugin-sdk/nesting"
	"github.com/pyws/pyws/plugin-sdk/tree"
)

// File is one workspace file of a request.
type File struct {
	URI    string
	Path   string // workspace-relative, slash-separated
	Source []byte // nil when the kernel sent no source
	// Tree is the file's syntax tree when the plugin's manifest needs
	// "tree" (the kernel parses, the SDK decodes); nil otherwise, and nil
	// when TooDeep is set.
	Tree *tree.Tree
	// TooDeep is set when the file nests deeper than CPython accepts or
	// than nesting.MaxTreeDepth (package nesting). The SDK then withholds
	// the tree, so no recursive walk of a plugin ever meets such a tree;
	// the plugin answers as it answers a syntax error, at TooDeep's
	// position and with its message.
	TooDeep *nesting.Excess
}

func decodeTree(f *File, blob []byte) error {
	t, err := tree.Decode(blob, f.Source)
	if err != nil {
		return err
	}
	if e, deep := nesting.Check(f.Source, t); deep {
		f.TooDeep = &e
		return nil
	}
	f.Tree = t
	return nil
}
