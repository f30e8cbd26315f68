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
