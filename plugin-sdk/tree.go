package sdk

import "github.com/pyws/pyws/plugin-sdk/tree"

// File is one workspace file of a request.
type File struct {
	URI    string
	Path   string // workspace-relative, slash-separated
	Source []byte // nil when the kernel sent no source
	// Tree is the file's syntax tree when the plugin's manifest needs
	// "tree" (the kernel parses, the SDK decodes); nil otherwise.
	Tree *tree.Tree
}

func decodeTree(f *File, blob []byte) error {
	t, err := tree.Decode(blob, f.Source)
	if err != nil {
		return err
	}
	f.Tree = t
	return nil
}
