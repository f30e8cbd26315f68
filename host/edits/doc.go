// Package edits is the only code in pyws that writes workspace files. It
// applies a workspace edit (the spec's changes map: file URI -> []TextEdit)
// all or nothing: every file is validated before any byte is written, the
// new contents go through a write-ahead journal, and a crash at any point
// leaves every file of the edit either all old or (once the journal is
// committed) all new after the next Open.
//
// # Contract of Apply
//
// Apply returns (Result, error). On success the error is nil and
// Result.Applied is true. On refusal the error is a *fault.Error and the
// Result has Applied false, FailureReason "CODE: message" (the same code and
// message as the fault) and zero counts, so the api can render either the
// error envelope or the tool result. Any other error (I/O failure, cancelled
// context) is internal: FailureReason then says so without detail, and the
// error is for the log. Nothing is written when Apply refuses or fails
// before the journal is committed; see "Journal protocol" for failures after.
//
// Checks, in this order (the first failure wins; files are checked in
// sorted path order, edits in array order):
//   - changes is empty: applied, 0 files, 0 edits (LSP applies an empty
//     WorkspaceEdit trivially).
//   - Limits: more files than Limits.MaxFiles, or more edits in one file than
//     Limits.MaxEditsPerFile (0 means unlimited): INVALID_PARAMETER with
//     details {parameter, limit, value} (the spec has no dedicated code).
//     A newText that is not valid UTF-8 is also INVALID_PARAMETER.
//   - Every URI goes through the Resolver, which confines it to the
//     workspace and returns its own FILE_NOT_FOUND / PERMISSION_DENIED
//     faults. Besides the path as named, it returns the file's directory
//     relative to the root with its symbolic links evaluated; two URIs
//     naming the same file (through a link or not) are CONFLICTING_EDITS.
//   - Confinement holds while the disk changes: the engine opens that
//     directory through an os.Root at the workspace root, under the locks,
//     and does everything else (validate, temporary file, rename, fsync)
//     relative to the directory's descriptor by the file's own name. A
//     directory replaced by a link out of the workspace after the Resolver
//     looked is refused (PERMISSION_DENIED); one replaced by a link inside
//     is followed. Recovery opens each journal file's directory through
//     the journal's root the same way; a directory that now leads out is a
//     conflict, left alone.
//   - Under the locks (see Concurrency), per file: missing or not a regular
//     file: FILE_NOT_FOUND; a symbolic link: PERMISSION_DENIED (replacing it
//     would break the link); no owner write bit in the mode: READONLY_FILE,
//     also when the server runs as root; more than one hard link:
//     PERMISSION_DENIED (an atomic replace would detach the other links);
//     opening for read+write (without truncating) fails with EACCES, EPERM,
//     EROFS or ETXTBSY: PERMISSION_DENIED; the temporary file cannot be
//     created in the file's directory or cannot be given the file's owner:
//     PERMISSION_DENIED.
//   - Encoding: files are UTF-8. A UTF-8 byte order mark is kept but is not
//     addressable (positions start after it, as in editors). A UTF-16 BOM or
//     invalid UTF-8: ENCODING_ERROR. A PEP 263 cookie naming another
//     encoding (latin-1, cp1252, ascii...) is accepted only while both the
//     file and every newText are pure ASCII, where the two encodings agree;
//     otherwise ENCODING_ERROR (no transcoding is done).
//   - Staleness: when the exact edit set for this file was registered with
//     Remember, the file's SHA-256 must be one it was computed against,
//     else FILE_MODIFIED. Edits the service did not generate are applied to
//     the current content.
//   - Ranges: line and character are 0-based; character counts UTF-16 code
//     units (package textpos). A line past the last line, a character past
//     the end of the line's content (the "\r\n" or "\n" is not addressable),
//     a character inside a surrogate pair, a negative number, or start after
//     end: INVALID_RANGE naming the file, the edit index and the bound. No
//     clamping: a position that does not exist is an error.
//   - Overlap: two edits conflict when their ranges share an interior
//     point, or one is an insertion strictly inside the other's range:
//     CONFLICTING_EDITS naming both indexes. Edits that only touch are fine.
//     Several insertions at the same point are allowed (as in LSP) and
//     their texts appear in array order; an insertion at the start of a
//     replaced range comes before the replacement text.
//
// Within a file the result is the one of applying the edits bottom to top
// (descending start); it is built in one forward pass over the edits sorted
// by (start, end, array index), which gives the same text. newText is
// inserted verbatim: line endings are not normalised.
//
// Result.TotalEdits counts every edit of the request; Result.FilesModified
// counts files whose content changed (a file whose edits leave it unchanged
// is not rewritten and not counted).
//
// # Journal protocol
//
// stateDir (outside any workspace) holds journal/ and locks/. With the file
// locks held and all new contents computed:
//  1. Write journal/<id>.journal.new: a header with the SHA-256 of the
//     body, then the body (the workspace root; for each file: path,
//     temporary name, mode, owner,
//     SHA-256 of the old and of the new content, and the new content).
//     The apply holds flock on this file until it finishes: that is how
//     recovery tells a live journal from one left by a dead process. fsync
//     it, rename it to <id>.journal.tmp (so recovery only ever sees it
//     flocked) and fsync the journal directory.
//  2. Write each new content to its temporary file beside the target
//     (".<name>.pyws-<id>.tmp", same directory, same owner and mode), fsync.
//  3. Commit: rename the journal to journal/<id>.journal, fsync the
//     directory. Nothing in the workspace has changed before this point.
//  4. Rename each temporary file over its target, then fsync every touched
//     directory.
//  5. Remove the journal and fsync the journal directory.
//
// Recovery (in Open, and before every Apply) takes each journal that no
// live apply holds flocked, in id order:
//   - .journal.tmp (not committed): nothing in the workspace was touched;
//     its temporary files are removed and it is discarded.
//   - .journal (committed): rolled forward under the file locks. A file
//     whose content is already the new content is left; one whose content
//     is still the old content is rewritten (temp + rename); a file that is
//     neither, or is missing, was changed by someone after the crash and is
//     left alone and reported (overwriting it would lose that change). So
//     recovery is idempotent and safe to repeat.
//   - .journal whose checksum fails (storage corruption): it cannot be
//     trusted, so it is renamed .corrupt and reported; files are untouched.
//   - .journal.new older than ten minutes: its apply died before writing
//     anything else; removed.
//
// Engine.Recovered reports what was done. An I/O failure after commit
// (step 4) leaves the journal in place for the next recovery, and Apply
// says so in its error.
//
// # Concurrency
//
// Apply takes, in sorted path order, an in-process lock per file (so
// applies touching disjoint files run in parallel and two applies on one
// file never lose an update), then an advisory flock on locks/NN.lock,
// one of 64 stripes chosen by a hash of the path, in stripe order. The
// flock makes two pyws processes that share a state dir serialize on the
// same files. Validation, staleness and writing all happen under both.
// Limits: processes with different state dirs, and programs that are not
// pyws (editors, git), are not excluded; for them the protocol only
// guarantees that each file is replaced atomically, and a change made
// between validation and rename can be overwritten. Paths must be
// spelled the same by every process (the root joined with the evaluated
// directory and the file's name) for the locks to meet.
//
// # Remember
//
// Tools that generate edits (rename_symbol, format_document) call Remember
// with the absolute path, the edits and the SHA-256 (hex) of the file bytes
// they were computed against. Edit sets are matched by a fingerprint of
// the path and the edits sorted by range and text, so a client that
// reorders edits still matches. Memory is bounded: 10,000 fingerprints,
// each forgotten after one hour (both adjustable with WithMemory); a
// forgotten edit set is applied like any client edit.
package edits
