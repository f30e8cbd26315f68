package pyright

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// The Debian packages the projects come from, and where they install.
const distPackages = "/usr/lib/python3/dist-packages"

// typeProjects: the sample count of each recorded project (types.md's
// 300/300/500), sampled with the harness's sampler and seed 1.
var typeProjects = []struct {
	name, pkg string
	samples   int
}{
	{"requests", "python3-requests", 300},
	{"flask", "python3-flask", 300},
	{"django", "python3-django", 500},
}

const typeSeed = 1

// pyrightConfig is how pyright is configured for the recordings: Debian's
// Python 3.11 on Linux with an empty virtual environment, so imports of
// other packages (werkzeug, urllib3, ...) are unresolved rather than
// whatever the recording machine has installed; standard checking.
func pyrightConfig(venvPath string) map[string]any {
	return map[string]any{
		"pythonVersion": "3.11", "pythonPlatform": "Linux", "typeCheckingMode": "standard",
		"venvPath": venvPath, "venv": "empty",
	}
}

// recording reads PYWS_PYRIGHT_UPDATE (update: re-record the fixtures'
// goldens) and the projects PYWS_PYRIGHT names to re-record with it.
func recording() (update bool, record map[string]bool) {
	update, record = os.Getenv("PYWS_PYRIGHT_UPDATE") != "", map[string]bool{}
	if update {
		for _, p := range strings.Split(os.Getenv("PYWS_PYRIGHT"), ",") {
			record[p] = true
		}
	}
	return update, record
}

// emptyVenv makes a virtual environment pyright accepts (pyvenv.cfg and
// an empty site-packages) under dir and returns dir.
func emptyVenv(t *testing.T) string {
	dir := t.TempDir()
	venv := filepath.Join(dir, "empty")
	if err := os.MkdirAll(filepath.Join(venv, "lib", "python3.11", "site-packages"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11\n"
	if err := os.WriteFile(filepath.Join(venv, "pyvenv.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pyrightVersion reads the version of the npm package whose
// node_modules/.bin holds the server.
func pyrightVersion() string {
	b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(ServerPath())), "pyright", "package.json"))
	var pj struct{ Version string }
	if err != nil || json.Unmarshal(b, &pj) != nil {
		return "unknown"
	}
	return pj.Version
}

func debianVersion(pkg string) string {
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", pkg).Output()
	if err != nil {
		return pkg + " (version unknown)"
	}
	return pkg + " " + string(out)
}

// configurePyright writes root's pyrightconfig.json (removed when the
// test ends) and returns the configuration as a golden records it.
func configurePyright(t *testing.T, root string) map[string]any {
	cfg := pyrightConfig(emptyVenv(t))
	b, _ := json.Marshal(cfg)
	p := filepath.Join(root, "pyrightconfig.json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(p) })
	cfg["venvPath"] = "(an empty directory)"
	return cfg
}

// installedProject hashes project p's installed files, skipping the test
// when its Debian package is absent.
func installedProject(t *testing.T, name, pkg string) map[string]string {
	found, err := ProjectFiles(distPackages, name)
	if err != nil || len(found) == 0 {
		t.Skipf("%s: %s is not installed (%s/%s: %v); apt-get install %s", name, pkg, distPackages, name, err, pkg)
	}
	return found
}

// skipUnlessRecorded skips a project whose installed files are not the
// ones its golden was recorded on.
func skipUnlessRecorded(t *testing.T, name, recordedPkg string, recorded, found map[string]string) {
	if d := FilesDiffer(recorded, found); d != "" {
		t.Skipf("%s: the installed files are not the recorded %s: %s; install that version or re-record with PYWS_PYRIGHT_UPDATE=1 PYWS_PYRIGHT=%s", name, recordedPkg, d, name)
	}
}

// recordTypes asks a live pyright for the hovers and type definitions at
// the sampled positions of root (a workspace holding the project's Python
// files) and runs pyright's CLI on it for the type errors.
func recordTypes(t *testing.T, s *nativeindex.Summarizer, root string, g *TypeGolden, n int) {
	ctx := context.Background()
	g.Config, g.Pyright = configurePyright(t, root), pyrightVersion()
	samples, err := Samples(ctx, s, root, n, g.Seed)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(ServerPath(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g.Cases = make([]TypeCase, len(samples))
	for i, smp := range samples {
		abs := filepath.Join(root, smp.Rel)
		md, err := c.Hover(abs, smp.Line, smp.Char)
		if err != nil {
			t.Fatalf("hover %s:%d:%d: %v", smp.Rel, smp.Line, smp.Char, err)
		}
		tc := TypeCase{Sample: smp, Hover: HoverCode(md)}
		locs, err := c.TypeDefinition(abs, smp.Line, smp.Char)
		if err != nil {
			t.Fatalf("typeDefinition %s:%d:%d: %v", smp.Rel, smp.Line, smp.Char, err)
		}
		for _, l := range locs {
			tc.TypeDefs = append(tc.TypeDefs, TypeDefString(root, l))
		}
		sort.Strings(tc.TypeDefs)
		tc.TypeDefs = slices.Compact(tc.TypeDefs) // one per overload or declaration
		g.Cases[i] = tc
	}
	g.Diags = pyrightTypeErrors(t, root)
}

// pyrightTypeErrors runs `pyright --outputjson` on the workspace (with
// its pyrightconfig.json) and keeps the diagnostics of TypeRules.
func pyrightTypeErrors(t *testing.T, root string) []Diag {
	cli := filepath.Join(filepath.Dir(ServerPath()), "pyright")
	cmd := exec.Command(cli, "--outputjson", "-p", filepath.Join(root, "pyrightconfig.json"))
	cmd.Dir = root
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Run() // status 1 when it reports errors
	var body struct {
		GeneralDiagnostics []struct {
			File    string `json:"file"`
			Message string `json:"message"`
			Rule    string `json:"rule"`
			Range   struct {
				Start struct{ Line, Character int } `json:"start"`
				End   struct{ Line, Character int } `json:"end"`
			} `json:"range"`
		} `json:"generalDiagnostics"`
		Summary struct {
			FilesAnalyzed int `json:"filesAnalyzed"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &body); err != nil {
		t.Fatalf("pyright --outputjson: %v (stderr %s)", err, errb.String())
	}
	if body.Summary.FilesAnalyzed == 0 {
		t.Fatalf("pyright analysed no files: %s", errb.String())
	}
	keep := map[string]bool{}
	for _, r := range TypeRules {
		keep[r] = true
	}
	var ds []Diag
	for _, d := range body.GeneralDiagnostics {
		if !keep[d.Rule] {
			continue
		}
		rel, err := filepath.Rel(root, d.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		msg, _, _ := strings.Cut(d.Message, "\n")
		if r := []rune(msg); len(r) > 100 {
			msg = string(r[:100]) + "..."
		}
		dg := Diag{At: fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), d.Range.Start.Line, d.Range.Start.Character), Rule: d.Rule, Message: msg}
		if d.Range.End.Line != d.Range.Start.Line {
			dg.EndLine = d.Range.End.Line
		}
		ds = append(ds, dg)
	}
	sort.SliceStable(ds, func(i, j int) bool { return diagLess(ds[i].At, ds[j].At) })
	return ds
}

// diagLess orders "rel:line:char" by file, then numerically.
func diagLess(a, b string) bool {
	ra, la, ca := splitAt(a)
	rb, lb, cb := splitAt(b)
	if ra != rb {
		return ra < rb
	}
	if la != lb {
		return la < lb
	}
	return ca < cb
}
