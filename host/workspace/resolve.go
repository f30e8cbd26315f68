package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/pyws/pyws/host/fault"
)

// Path limits, as Linux's PATH_MAX and NAME_MAX.
const (
	MaxPathBytes      = 4096
	MaxComponentBytes = 255
	maxSymlinkHops    = 40 // as Linux's MAXSYMLINKS
)

// Reasons carried in the details of PERMISSION_DENIED for a refused path.
const (
	ReasonOutside         = "path resolves outside the workspace"
	ReasonSymlinkEscape   = "path leaves the workspace through a symbolic link"
	ReasonDoubleSlash     = "path begins with //"
	ReasonTilde           = "path begins with ~"
	ReasonNUL             = "path contains a NUL byte"
	ReasonTooLong         = "path is longer than 4096 bytes"
	ReasonComponentLong   = "a path component is longer than 255 bytes"
	ReasonBadEscape       = "URI has an invalid percent-encoding"
	ReasonRemoteHost      = "file URI names a remote host"
	ReasonSymlinkLoop     = "too many levels of symbolic links"
	ReasonNotRegular      = "not a regular file"
	ReasonUnreadable      = "the file cannot be read"
	ReasonOutsideAbsolute = "absolute path outside the workspace"
)

// resolved is a confined path: abs and rel name it as the caller did (after
// lexical cleaning), real and realRel are the same file with every symbolic
// link of its existing prefix evaluated. realRel is what this package opens
// through an os.Root.
type resolved struct {
	abs, rel      string
	real, realRel string
}

// Resolve confines p to the workspace. p is relative to the root; a leading
// "/" also means root-relative ("/pkg/a.py", as structure paths are
// written), unless p is an absolute path already inside the root (as given
// to Open or after symlink evaluation), which is taken as is. Backslashes
// are read as "/". The file need not exist: the deepest existing prefix is
// symlink-evaluated and the rest appended, so a new file is confined too.
// abs is absolute and lexically clean, rel is slash-separated and relative
// ("" for the root). Refusals are *fault.Error PERMISSION_DENIED with
// details {path, reason}.
func (w *Workspace) Resolve(p string) (abs, rel string, err error) {
	r, err := w.resolve(p, p, false)
	if err != nil {
		return "", "", err
	}
	return r.abs, r.rel, nil
}

// ResolveURI confines a file URI ("file:///abs/path", percent-decoded once,
// host empty or "localhost") or a bare path. A URI or an absolute bare path
// is a filesystem path: outside the root it is refused. A relative bare
// path is root-relative, as for Resolve. Bare paths are not percent-decoded.
func (w *Workspace) ResolveURI(uri string) (abs, rel string, err error) {
	p, err := uriPath(uri)
	if err != nil {
		return "", "", err
	}
	r, err := w.resolve(uri, p, true)
	if err != nil {
		return "", "", err
	}
	return r.abs, r.rel, nil
}

// ResolveURIDir is ResolveURI for the edit engine: it also returns the
// root-relative directory holding the file with every symbolic link
// evaluated ("" for the root), which the engine opens through an os.Root
// and then works in by the file's own name. That name is left as given,
// so a link there is the engine's to refuse, not followed. rel is "" for
// the root itself, which has no directory in the workspace.
func (w *Workspace) ResolveURIDir(uri string) (abs, rel, realDir string, err error) {
	p, err := uriPath(uri)
	if err != nil {
		return "", "", "", err
	}
	r, err := w.resolve(uri, p, true)
	if err != nil || r.rel == "" {
		return r.abs, r.rel, "", err
	}
	dir, err := evalConfinedPrefix(w.root, filepath.Dir(r.abs))
	switch {
	case errors.Is(err, syscall.ELOOP):
		return "", "", "", denied(uri, ReasonSymlinkLoop)
	case err != nil:
		return "", "", "", deniedErr(uri, ReasonUnreadable, err)
	case !within(dir, w.root):
		return "", "", "", denied(uri, ReasonSymlinkEscape)
	}
	return r.abs, r.rel, relTo(w.root, dir), nil
}

// FileURI renders an absolute path as the file:// URI ResolveURI reads
// back, percent-encoding what a URI must not carry raw.
func FileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func uriPath(uri string) (string, error) {
	if strings.IndexByte(uri, 0) >= 0 {
		return "", denied(uri, ReasonNUL)
	}
	if len(uri) > 5 && strings.EqualFold(uri[:5], "file:") && uri[5] == '/' && !strings.HasPrefix(uri[5:], "//") {
		uri = "file://" + uri[5:] // file:/abs/path, the short form
	}
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || strings.ContainsAny(scheme, "/\\.") {
		return uri, nil // a bare path
	}
	if !strings.EqualFold(scheme, "file") {
		return "", fault.New(fault.InvalidParameter, fault.Details{"parameter": "uri", "value": clip(uri), "reason": "only file:// URIs name workspace files"},
			"unsupported URI scheme %q: only file:// URIs name workspace files", scheme)
	}
	host, p, _ := strings.Cut(rest, "/")
	if host != "" && !strings.EqualFold(host, "localhost") {
		return "", denied(uri, ReasonRemoteHost)
	}
	dec, err := url.PathUnescape("/" + p)
	if err != nil {
		return "", denied(uri, ReasonBadEscape)
	}
	return dec, nil
}

func (w *Workspace) resolve(display, p string, fsAbsolute bool) (resolved, error) {
	switch {
	case strings.IndexByte(p, 0) >= 0:
		return resolved{}, denied(display, ReasonNUL)
	case len(p) > MaxPathBytes:
		return resolved{}, denied(display, ReasonTooLong)
	}
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(p, "//"):
		return resolved{}, denied(display, ReasonDoubleSlash)
	case strings.HasPrefix(p, "~"):
		return resolved{}, denied(display, ReasonTilde)
	}
	for _, c := range strings.Split(p, "/") {
		if len(c) > MaxComponentBytes {
			return resolved{}, denied(display, ReasonComponentLong)
		}
	}
	var cand string
	if strings.HasPrefix(p, "/") {
		clean := filepath.Clean(p)
		switch {
		case within(clean, w.root):
			cand = clean
		case w.given != w.root && within(clean, w.given):
			cand = filepath.Join(w.root, strings.TrimPrefix(clean, w.given))
		case fsAbsolute:
			return resolved{}, denied(display, ReasonOutsideAbsolute)
		default:
			cand = filepath.Join(w.root, p)
		}
	} else {
		cand = filepath.Join(w.root, p)
	}
	if !within(cand, w.root) {
		return resolved{}, denied(display, ReasonOutside)
	}
	real, err := evalConfinedPrefix(w.root, cand)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return resolved{}, denied(display, ReasonSymlinkLoop)
		}
		return resolved{}, deniedErr(display, ReasonUnreadable, err)
	}
	if !within(real, w.root) {
		return resolved{}, denied(display, ReasonSymlinkEscape)
	}
	return resolved{abs: cand, rel: relTo(w.root, cand), real: real, realRel: relTo(w.root, real)}, nil
}

// within reports whether clean absolute path p is dir or below it.
func within(p, dir string) bool {
	if p == dir {
		return true
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

func relTo(root, p string) string {
	if p == root {
		return ""
	}
	if root == "/" {
		return p[1:]
	}
	return p[len(root)+1:]
}

// evalConfinedPrefix evaluates the symbolic links of p (absolute, clean,
// inside root; root has none) component by component, like
// filepath.EvalSymlinks, but tolerates a missing tail: from the first
// component that does not exist, the rest is appended lexically. A dangling
// link is therefore followed to where it points, so creating a file through
// it is confined too.
func evalConfinedPrefix(root, p string) (string, error) {
	resolved := root
	var rest []string
	if r := relTo(root, p); r != "" {
		rest = strings.Split(r, "/")
	}
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return filepath.Join(append([]string{next}, rest...)...), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if hops++; hops > maxSymlinkHops {
			return "", syscall.ELOOP
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return resolved, nil
}

func denied(path, reason string) *fault.Error {
	return fault.New(fault.PermissionDenied, fault.Details{"path": clip(path), "reason": reason},
		"access to %s denied: %s", quote(path), reason)
}

func deniedErr(path, reason string, err error) *fault.Error {
	e := denied(path, reason)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	e.Message += fmt.Sprintf(" (%v)", err)
	return e
}

// clip keeps details and messages readable when a caller sends a huge path.
func clip(s string) string {
	const max = 512
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}

func quote(s string) string { return fmt.Sprintf("%q", clip(s)) }

// Canonical returns the path, and root-relative path, the listing gives
// the file at abs (a path Resolve or ResolveURI returned): abs itself,
// unless a directory on the way is a symbolic link (ws/leave/a.py with
// leave -> the root). The listing walks each real directory once, under
// its real name, so the file is listed and indexed as a.py; answering for
// it under the alias made a second module of one file. A linked file in
// a real directory is listed under its own name and stays as it is.
func (w *Workspace) Canonical(abs string) (string, string) {
	dir := filepath.Dir(abs)
	if real, err := filepath.EvalSymlinks(dir); err != nil || real == dir {
		return abs, relTo(w.root, abs)
	}
	r, err := w.resolve(abs, abs, true)
	if err != nil || r.real == "" {
		return abs, relTo(w.root, abs)
	}
	return r.real, r.realRel
}
