// Package teststubs gives the binaries that tests build the typeshed stubs
// `make stubs` fetched, laid out as `make build` lays out bin/.
package teststubs

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pyws/pyws/plugin-sdk/typeshed"
)

// LinkBeside links repo's bin/typeshed as typeshed/ beside the binary at
// bin, where `pyws serve` looks by default, after checking the stubs as
// serve will: a server that cannot start says so here, not after a wait.
func LinkBeside(repo, bin string) error {
	src, err := filepath.Abs(filepath.Join(repo, "bin", "typeshed"))
	if err != nil {
		return err
	}
	if _, err := typeshed.Verify(os.DirFS(src)); err != nil {
		return fmt.Errorf("typeshed stubs in %s: %w; run `make stubs` (make build and make test do) before these tests", src, err)
	}
	link := filepath.Join(filepath.Dir(bin), "typeshed")
	if err := os.Symlink(src, link); err != nil && !os.IsExist(err) {
		return err
	}
	return nil
}

// Open returns the stubs `make stubs` fetched into the repository's
// bin/typeshed, verified, finding the repository from the working
// directory (a test runs in its package's directory).
func Open() (*typeshed.Stubs, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("typeshed stubs: no go.mod above the working directory")
		}
		dir = parent
	}
	src := filepath.Join(dir, "bin", "typeshed")
	stubs, err := typeshed.Verify(os.DirFS(src))
	if err != nil {
		return nil, fmt.Errorf("typeshed stubs in %s: %w; run `make stubs` (make build and make test do) before these tests", src, err)
	}
	return stubs, nil
}
