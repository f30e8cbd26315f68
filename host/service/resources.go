package service

import (
	"context"
	"net/url"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace"
)

func runStructure(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := checkResourceURI(a, StructureURI); err != nil {
		return nil, err
	}
	depth := a.Int("maxDepth")
	return s.ws.ws.Structure(ctx, workspace.StructureOptions{
		MaxDepth:        &depth,
		DepthCap:        s.Limits.MaxStructureDepth,
		IncludeHidden:   a.Bool("includeHidden"),
		ExcludePatterns: a.Strings("excludePatterns"),
		OmitMetadata:    !a.Bool("includeMetadata"),
	})
}

func runListFiles(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := checkResourceURI(a, FilesURI); err != nil {
		return nil, err
	}
	return s.ws.ws.ListFiles(ctx, workspace.ListOptions{
		Filter:          a.String("filter"),
		ExcludeTests:    !a.Bool("includeTests"),
		ExcludePatterns: a.Strings("excludePatterns"),
	})
}

func runReadFile(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	uri := a.String("uri")
	if !strings.HasPrefix(uri, FileURIPrefix) {
		return nil, toolspec.Invalid("uri", uri, "the read file resource takes a URI of the form %s{path}", FileURIPrefix)
	}
	// The path is percent-decoded exactly once, here; confinement then
	// judges the decoded path.
	path, err := url.PathUnescape(strings.TrimPrefix(uri, FileURIPrefix))
	if err != nil {
		return nil, toolspec.Invalid("uri", uri, "the file path in %q is not valid percent-encoding", uri)
	}
	if path == "" {
		return nil, toolspec.Invalid("uri", uri, "the URI names no file: use %s{path} with a path relative to the workspace root", FileURIPrefix)
	}
	o := workspace.ReadOptions{
		Path:         path,
		Encoding:     a.String("encoding"),
		OmitMetadata: !a.Bool("includeMetadata"),
		MaxBytes:     s.Limits.MaxReadFileBytes,
	}
	if lr, ok := a.Object("lineRange"); ok {
		o.LineRange = &workspace.LineRange{Start: lr.Int("start"), End: lr.Int("end")}
	}
	return s.ws.ws.ReadFile(ctx, o)
}

// checkResourceURI refuses a uri parameter naming another resource.
func checkResourceURI(a toolspec.Args, want string) error {
	if got := a.String("uri"); got != "" && got != want {
		return fault.New(fault.InvalidParameter, fault.Details{"parameter": "uri", "value": got},
			"this resource is %s, not %s", want, got)
	}
	return nil
}
