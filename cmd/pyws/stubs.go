package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// defaultStubsDir is typeshed/ beside the binary, where `make stubs` puts
// the stubs next to bin/pyws, as plugins/ is found.
func defaultStubsDir() string { return besideBinary("typeshed") }

// openStubs verifies the typeshed stubs at start-up: a missing, truncated
// or other-commit tree is an error naming the file and how to restore it.
func openStubs(dir string) (*typeshed.Stubs, error) {
	stubs, err := typeshed.Verify(os.DirFS(dir))
	var fe *typeshed.FileError
	if errors.As(err, &fe) {
		return nil, fmt.Errorf("typeshed stubs: %s: %w; restore them with `make stubs` (it writes bin/typeshed beside bin/pyws) or give --stubs DIR", filepath.Join(dir, fe.File), fe.Err)
	}
	return stubs, err
}
