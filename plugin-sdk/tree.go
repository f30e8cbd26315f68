package sdk

// File is one workspace file of a request.
type File struct {
	URI    string
	Path   string // workspace-relative, slash-separated
	Source []byte // nil when the kernel sent no source
	// TreeBlob is the flat syntax tree the kernel parsed for this file when
	// the plugin's manifest needs "tree"; nil otherwise.
	TreeBlob []byte
}

func decodeTree(f *File, blob []byte) error {
	f.TreeBlob = blob
	return nil
}
