package service

import (
	"strings"
	"testing"
)

func TestInstalledImported(t *testing.T) {
	installed := []string{"numpy", "requests", "yaml", "django"}
	got := installedImported(installed, map[string]int{"numpy.linalg": 0, "yaml": 0, ".local": 2, "os.path": 0})
	if strings.Join(got, ",") != "numpy,yaml" {
		t.Errorf("got %v, want numpy,yaml", got)
	}
	if got := installedImported(installed, nil); got == nil || len(got) != 0 {
		t.Errorf("no imports: got %#v, want an empty, non-nil list", got)
	}
}
