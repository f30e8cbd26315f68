package workspace

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ListOptions are the parameters of the list files resource. The zero
// value asks for the spec's defaults.
type ListOptions struct {
	Filter          string        // one glob; a leading "!" makes it an exclusion
	ExcludeTests    bool          // includeTests=false
	ExcludePatterns []string      // globs; see the package doc
	Timeout         time.Duration // scan limit, 0: DefaultScanTimeout
}

// FileList is the result of the list files resource.
type FileList struct {
	Files         []FileEntry `json:"files"`
	TotalCount    int         `json:"totalCount"`
	WorkspaceRoot string      `json:"workspaceRoot"`
}

// FileEntry is one Python file.
type FileEntry struct {
	Path         string `json:"path"`         // absolute
	RelativePath string `json:"relativePath"` // slash-separated, no leading "/"
	Size         int64  `json:"size"`
	LastModified string `json:"lastModified"` // RFC 3339, UTC, milliseconds
	IsTest       bool   `json:"isTest"`
	Language     string `json:"language"`
}

// TimeFormat is how timestamps are written: RFC 3339 in UTC with
// milliseconds, e.g. 2024-05-01T12:00:00.000Z.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

func formatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// ListFiles lists the workspace's Python files (.py and .pyi) outside
// hidden and default-excluded directories, sorted by relative path.
func (w *Workspace) ListFiles(ctx context.Context, o ListOptions) (*FileList, error) {
	var include, exclude []pattern
	if f := o.Filter; f != "" {
		neg := strings.HasPrefix(f, "!")
		p, err := compilePattern(strings.TrimPrefix(f, "!"))
		if err != nil {
			return nil, err
		}
		if neg {
			exclude = append(exclude, p)
		} else {
			include = append(include, p)
		}
	}
	ex, err := compilePatterns(o.ExcludePatterns)
	if err != nil {
		return nil, err
	}
	exclude = append(exclude, ex...)
	s, err := w.snapshot(ctx, o.Timeout)
	if err != nil {
		return nil, err
	}
	out := &FileList{Files: []FileEntry{}, WorkspaceRoot: w.root}
	pythonFiles(s.root, func(d *dirNode, f fileNode) {
		rel := join(d.rel, f.name)
		if include != nil && !matchAny(include, rel) || matchAny(exclude, rel) {
			return
		}
		isTest := IsTest(f.name)
		if isTest && o.ExcludeTests {
			return
		}
		out.Files = append(out.Files, FileEntry{
			Path:         filepath.Join(w.root, filepath.FromSlash(rel)),
			RelativePath: rel,
			Size:         f.size,
			LastModified: formatTime(f.mtime),
			IsTest:       isTest,
			Language:     Language(f.name),
		})
	})
	slices.SortFunc(out.Files, func(a, b FileEntry) int { return strings.Compare(a.RelativePath, b.RelativePath) })
	out.TotalCount = len(out.Files)
	return out, nil
}

// PythonFiles returns the absolute paths of every file ListFiles would
// list with no filter, sorted: the set to index and health's fileCount.
func (w *Workspace) PythonFiles(ctx context.Context) ([]string, error) {
	s, err := w.snapshot(ctx, 0)
	if err != nil {
		return nil, err
	}
	var out []string
	pythonFiles(s.root, func(d *dirNode, f fileNode) {
		out = append(out, filepath.Join(w.root, filepath.FromSlash(join(d.rel, f.name))))
	})
	slices.Sort(out)
	return out, nil
}

// pythonFiles visits the Python files of the scan outside hidden entries.
func pythonFiles(d *dirNode, fn func(*dirNode, fileNode)) {
	for _, f := range d.files {
		if Language(f.name) != "" && !hidden(f.name) {
			fn(d, f)
		}
	}
	for _, sub := range d.dirs {
		if !hidden(sub.name) {
			pythonFiles(sub, fn)
		}
	}
}
