package workspace

import (
	"context"
	"slices"
	"time"

	"github.com/pyws/pyws/host/fault"
)

// Depth bounds for Structure, from the spec.
const (
	DefaultMaxDepth = 10
	MinDepth        = 1
	MaxDepth        = 20
)

// StructureOptions are the parameters of the workspace structure resource.
// The zero value asks for the spec's defaults.
type StructureOptions struct {
	MaxDepth        *int          // nil: DefaultMaxDepth; outside 1-20 is INVALID_PARAMETER
	DepthCap        int           // the tier's cap, 0 for none; a deeper request is silently capped
	IncludeHidden   bool          // include entries whose name begins with "."
	ExcludePatterns []string      // globs, see package doc; an invalid one is INVALID_FILTER
	OmitMetadata    bool          // includeMetadata=false: no metadata, counts or sizes
	Timeout         time.Duration // scan limit, 0: DefaultScanTimeout
}

// Structure is the result of the workspace structure resource.
type Structure struct {
	Root     *Node              `json:"root"`
	Metadata *StructureMetadata `json:"metadata,omitempty"`

	// RequestedDepth and DepthCapped tell the api layer whether the tier's
	// cap lowered the depth (the effective depth is Metadata.Depth).
	RequestedDepth int  `json:"-"`
	EffectiveDepth int  `json:"-"`
	DepthCapped    bool `json:"-"`
}

// StructureMetadata summarizes the whole filtered tree (not only the part
// within the depth).
type StructureMetadata struct {
	TotalFiles       int      `json:"totalFiles"`
	TotalDirectories int      `json:"totalDirectories"` // below the root
	Packages         []string `json:"packages"`
	Depth            int      `json:"depth"` // effective maximum depth
	TotalSize        int64    `json:"totalSize"`
}

// Node is a structure node. Directory-only and file-only fields are
// omitted on the other kind. Every directory has Children (an empty array
// on an empty directory and on one at the depth limit, which also says
// Truncated: true when it has entries the walk did not show); the counts
// and sizes of a directory at the depth limit still cover everything
// below it (the cached scan holds them, so they cost nothing).
type Node struct {
	Name      string  `json:"name"`
	Path      string  `json:"path"`
	Type      string  `json:"type"` // "directory" or "file"
	Children  []*Node `json:"children,omitzero"`
	Truncated bool    `json:"truncated,omitempty"` // directories at the depth limit with hidden entries
	FileCount *int    `json:"fileCount,omitempty"`
	TotalSize *int64  `json:"totalSize,omitempty"`
	IsPackage *bool   `json:"isPackage,omitempty"`
	Language  string  `json:"language,omitempty"`
	Size      *int64  `json:"size,omitempty"`
}

// Node types.
const (
	TypeDirectory = "directory"
	TypeFile      = "file"
)

// Structure returns the directory tree of the workspace.
func (w *Workspace) Structure(ctx context.Context, o StructureOptions) (*Structure, error) {
	depth := DefaultMaxDepth
	if o.MaxDepth != nil {
		depth = *o.MaxDepth
		if depth < MinDepth || depth > MaxDepth {
			return nil, fault.New(fault.InvalidParameter,
				fault.Details{"parameter": "maxDepth", "value": depth, "min": MinDepth, "max": MaxDepth},
				"maxDepth %d is outside %d-%d", depth, MinDepth, MaxDepth)
		}
	}
	excl, err := compilePatterns(o.ExcludePatterns)
	if err != nil {
		return nil, err
	}
	res := &Structure{RequestedDepth: depth}
	if o.DepthCap > 0 && depth > o.DepthCap {
		depth, res.DepthCapped = o.DepthCap, true
	}
	res.EffectiveDepth = depth
	s, err := w.snapshot(ctx, o.Timeout)
	if err != nil {
		return nil, err
	}
	r := renderer{o: o, excl: excl, maxDepth: depth}
	root, t := r.dir(s.root, "", 0)
	root.Path = "/"
	res.Root = root
	if !o.OmitMetadata {
		res.Metadata = &StructureMetadata{
			TotalFiles:       t.files,
			TotalDirectories: t.dirs,
			Packages:         r.packages(s.root),
			Depth:            depth,
			TotalSize:        t.size,
		}
	}
	return res, nil
}

type totals struct {
	files, pyFiles, dirs int
	size                 int64
}

type renderer struct {
	o        StructureOptions
	excl     []pattern
	maxDepth int
}

func (r *renderer) keep(name, rel string) bool {
	if hidden(name) && !r.o.IncludeHidden {
		return false
	}
	return !matchAny(r.excl, rel)
}

func join(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// dir renders d at depth (the root is 0) and returns the totals below it.
func (r *renderer) dir(d *dirNode, rel string, depth int) (*Node, totals) {
	n := &Node{Name: d.name, Path: "/" + rel, Type: TypeDirectory}
	show := depth < r.maxDepth
	if show {
		n.Children = make([]*Node, 0, len(d.dirs)+len(d.files))
	} else {
		n.Children = []*Node{}
	}
	var t totals
	var kept int // entries that pass the filters
	for _, sub := range d.dirs {
		srel := join(rel, sub.name)
		if !r.keep(sub.name, srel) {
			continue
		}
		kept++
		c, ct := r.dir(sub, srel, depth+1)
		t.files += ct.files
		t.pyFiles += ct.pyFiles
		t.dirs += ct.dirs + 1
		t.size += ct.size
		if show {
			n.Children = append(n.Children, c)
		}
	}
	for _, f := range d.files {
		frel := join(rel, f.name)
		if !r.keep(f.name, frel) {
			continue
		}
		kept++
		t.files++
		t.size += f.size
		lang := Language(f.name)
		if lang != "" {
			t.pyFiles++
		}
		if show {
			c := &Node{Name: f.name, Path: "/" + frel, Type: TypeFile, Language: lang}
			if !r.o.OmitMetadata {
				c.Size = new(f.size)
			}
			n.Children = append(n.Children, c)
		}
	}
	n.Truncated = !show && kept > 0
	if !r.o.OmitMetadata {
		n.FileCount = new(t.pyFiles)
		n.TotalSize = new(t.size)
		n.IsPackage = new(d.isPkg)
	}
	return n, t
}

// packages lists dotted names of regular packages reachable from the root
// through packages only, or from a top-level "src" directory (src layout).
// Namespace packages (no __init__.py) are not listed and end a chain.
func (r *renderer) packages(root *dirNode) []string {
	out := []string{}
	var chain func(d *dirNode, rel, dotted string)
	chain = func(d *dirNode, rel, dotted string) {
		out = append(out, dotted)
		for _, sub := range d.dirs {
			srel := join(rel, sub.name)
			if sub.isPkg && isIdentifier(sub.name) && r.keep(sub.name, srel) {
				chain(sub, srel, dotted+"."+sub.name)
			}
		}
	}
	for _, d := range root.dirs {
		if !r.keep(d.name, d.name) {
			continue
		}
		if d.isPkg && isIdentifier(d.name) {
			chain(d, d.name, d.name)
		} else if d.name == "src" {
			for _, sub := range d.dirs {
				srel := "src/" + sub.name
				if sub.isPkg && isIdentifier(sub.name) && r.keep(sub.name, srel) {
					chain(sub, srel, sub.name)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isIdentifier reports whether name can be a Python package name (ASCII
// subset of the rule: letters, digits, underscore, not starting with a
// digit; non-ASCII letters are accepted as Python allows them).
func isIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f:
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
