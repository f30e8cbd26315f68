// Package workspace is the trusted kernel's view of one tenant's workspace
// directory: path confinement, the three workspace resources of the
// service spec (structure, list files, read file), source encodings and
// change watching. Every refusal is a *fault.Error carrying the spec's code
// and details; any other error is internal.
//
// # Confinement
//
// Resolve and ResolveURI are the only ways a caller's path becomes a file
// path. In order: a NUL byte, more than 4096 bytes or a component over 255
// bytes is refused; "\" is read as "/"; a path beginning with "//" or "~"
// is refused; "." and ".." are resolved lexically and the result must lie
// inside the root; then the symbolic links of the deepest existing prefix
// are evaluated (a dangling link is followed to where it points) and the
// real path must lie inside the root too. All refusals are
// PERMISSION_DENIED with details {path, reason}, reason being one of the
// Reason constants.
//
// A plain path is root-relative, and a leading "/" means the root too
// ("/pkg/a.py", as structure paths are written), so "/etc/passwd" names
// <root>/etc/passwd; an absolute path already inside the root (as given to
// Open or symlink-evaluated) is taken as is. A file URI, or a bare
// absolute path given to ResolveURI, is a filesystem path and is refused
// outside the root. URIs are percent-decoded exactly once, before every
// check. Reads then open the symlink-free path through an os.Root, so a
// link swapped in after Resolve still cannot leave the workspace.
//
// # Scanning and default excludes
//
// Structure, ListFiles and PythonFiles share one scan of the workspace,
// cached for 5 minutes and reused by every filter. The scan skips
// DefaultExcludedDirs, *.egg-info, virtual environments under any name
// (pyvenv.cfg or conda-meta inside), and build/ and dist/ at the top level.
// Symbolic links are followed only when their target is inside the
// workspace, and each real directory is scanned once (the first path in
// sorted order), which also breaks loops. FIFOs, sockets and devices are
// not listed. A scan over its limit (30 s, StructureOptions.Timeout) is
// SCAN_TIMEOUT {timeout, suggestion} and is not cached.
//
// After Watch, every fsnotify event invalidates the cache immediately; an
// event overflow invalidates it too. Without a working watcher (never
// started, watch limit reached) a cached scan is served only if every
// scanned directory still has its recorded mtime and none had changed in
// the 2 s before the scan (coarse timestamps could hide a change); this
// catches files created, removed or renamed, but not a size or mtime change
// of an existing file, which can then lag by up to the cache lifetime.
//
// # Structure
//
// maxDepth (default 10, 1-20 else INVALID_PARAMETER) bounds the nodes
// returned; the root is depth 0. DepthCap (the tier's) lowers it silently;
// metadata.depth is the effective depth. Counts and sizes (fileCount,
// totalSize, metadata) always cover the whole filtered tree, also below the
// depth limit; a directory at the limit has no children field, an empty
// directory has an empty one. Directories come first, then files, each by
// name. All files are shown; language is set for .py ("python") and .pyi
// ("python-stub") only. fileCount counts Python files; metadata.totalFiles
// counts all files and totalDirectories all directories below the root.
// isPackage means __init__.py (or __init__.pyi) is present. packages lists
// dotted names of regular-package chains starting at the root or in a
// top-level src/ directory. excludePatterns prune whole subtrees.
//
// # Patterns
//
// Globs are doublestar patterns against the slash-separated relative path.
// A pattern without "/" also matches any single component ("test_*.py",
// "tests"); a pattern matching a directory matches everything below it; a
// leading or trailing "/" is ignored. In ListOptions.Filter a leading "!"
// turns the filter into an exclusion. Invalid patterns are INVALID_FILTER
// {pattern, reason}.
//
// # List files
//
// .py and .pyi files outside hidden and excluded directories, sorted by
// relativePath; hidden files are not listed. isTest follows the spec
// literally: the base name contains "test_" or "_test.py" (so files in a
// tests/ directory without such a name are not tests, and "contest_x.py"
// is). lastModified is RFC 3339 UTC with milliseconds.
//
// # Read file
//
// Encoding detection is described in package textenc: BOM, then PEP 263
// cookie, then the requested encoding (default utf-8); metadata.encoding is
// the one used. An unknown requested name is INVALID_PARAMETER {parameter,
// value, allowed}; undecodable bytes are ENCODING_ERROR {path,
// requestedEncoding, detectedEncoding}, where detectedEncoding is the
// BOM's or cookie's encoding, or, when the file declares none, a supported
// encoding its bytes do decode in (the one to retry with).
//
// Lines are counted as Python's readlines does: a final newline does not
// open another line, an empty file has 0 lines. lineRange {start, end} is
// inclusive and 0-based; content is those lines with their terminators.
// start > end, a negative bound, or start beyond the last line is
// INVALID_PARAMETER (start 0 of an empty file returns nothing); end beyond
// the last line is clamped and metadata.lineRange shows the effective
// range. hash is the SHA-256 of the raw bytes of the whole file.
//
// A file over MaxBytes (the tier's cap; 0 means HardMaxBytes, 64 MiB) is
// FILE_TOO_LARGE {size, limit, suggestion} unless lineRange is given: then
// files up to StreamCeiling (1 GiB) are streamed once, keeping only the
// requested lines (at most MaxBytes of them) and decoding only those.
// A directory is FILE_NOT_FOUND (reason "is a directory"); a FIFO, socket
// or device is PERMISSION_DENIED without being read. Any file inside the
// workspace may be read, Python or not; language is absent for others.
//
// # Options
//
// Option structs are shaped so their zero value is the spec's default:
// includeMetadata=false is OmitMetadata, includeTests=false is
// ExcludeTests, maxDepth absent is a nil MaxDepth.
package workspace
