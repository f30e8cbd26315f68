package edits

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pyws/pyws/host/regularfile"
)

const journalMagic = "pyws-edit-journal v1\n"

// errPending marks a failure after commit: the journal stays for recovery.
var errPending = errors.New("edits: apply committed but not completed; recovery will finish it")

// crashHook, when set (by tests), is called at each point where a crash is
// interesting: "journal-written", "temps-written", "committed",
// "renamed-<k>" after the k-th rename, "done".
var crashHook func(point string)

func hit(point string) {
	if crashHook != nil {
		crashHook(point)
	}
}

type journal struct {
	Version int    `json:"version"`
	ID      string `json:"id"`
	// Root is the workspace root every file is below; recovery opens each
	// file's directory through it. Journals written before it existed
	// have none: their files' own directories serve as roots.
	Root  string        `json:"root,omitempty"`
	Files []journalFile `json:"files"`
}

type journalFile struct {
	Path      string      `json:"path"`
	Temp      string      `json:"temp"`
	Mode      fs.FileMode `json:"mode"`
	UID       int         `json:"uid"`
	GID       int         `json:"gid"`
	OldSHA256 string      `json:"oldSHA256"`
	NewSHA256 string      `json:"newSHA256"`
	Content   []byte      `json:"content"`
}

func encodeJournal(j *journal) ([]byte, error) {
	body, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	out := make([]byte, 0, len(journalMagic)+65+len(body))
	out = append(out, journalMagic...)
	out = append(out, hex.EncodeToString(sum[:])...)
	out = append(out, '\n')
	return append(out, body...), nil
}

func decodeJournal(data []byte) (*journal, error) {
	rest, ok := bytes.CutPrefix(data, []byte(journalMagic))
	if !ok || len(rest) < 65 || rest[64] != '\n' {
		return nil, errors.New("edits: journal header invalid")
	}
	sum := sha256.Sum256(rest[65:])
	if hex.EncodeToString(sum[:]) != string(rest[:64]) {
		return nil, errors.New("edits: journal checksum mismatch")
	}
	var j journal
	if err := json.Unmarshal(rest[65:], &j); err != nil {
		return nil, fmt.Errorf("edits: journal body invalid: %w", err)
	}
	if j.Version != 1 {
		return nil, fmt.Errorf("edits: journal version %d unknown", j.Version)
	}
	return &j, nil
}

func (e *Engine) newID() string {
	return fmt.Sprintf("%016x-%d-%d", time.Now().UnixNano(), os.Getpid(), e.seq.Add(1))
}

// tempName is the temporary file beside abs for journal id.
// tempName is the name of a file's temporary twin in its directory.
func tempName(name, id string) string {
	if len(name) > 100 {
		name = name[:100]
	}
	return "." + name + ".pyws-" + id + ".tmp"
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// write runs the journal protocol (package comment) for the changed files.
// The caller holds their locks.
func (e *Engine) write(files []*file) (err error) {
	id := e.newID()
	j := &journal{Version: 1, ID: id}
	var changed []*file
	for _, f := range files {
		if !f.changed {
			continue
		}
		j.Root = f.root
		f.temp = tempName(f.place.name, id)
		changed = append(changed, f)
		j.Files = append(j.Files, journalFile{
			Path: f.real, Temp: filepath.Join(filepath.Dir(f.real), f.temp), Mode: f.mode, UID: f.uid, GID: f.gid,
			OldSHA256: sha256Hex(f.old), NewSHA256: sha256Hex(f.new), Content: f.new,
		})
	}
	data, err := encodeJournal(j)
	if err != nil {
		return err
	}

	// 1. Uncommitted journal, flocked for as long as this apply runs. It is
	// written under a name recovery leaves alone (.journal.new) and renamed
	// to .journal.tmp once flocked, so recovery never mistakes a journal
	// being born for an orphan.
	newPath := filepath.Join(e.journalDir, id+".journal.new")
	tmpPath := filepath.Join(e.journalDir, id+".journal.tmp")
	finalPath := filepath.Join(e.journalDir, id+".journal")
	jf, err := os.OpenFile(newPath, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("edits: journal: %w", err)
	}
	defer jf.Close()
	committed := false
	defer func() {
		if err != nil && !committed {
			for _, f := range changed {
				if f.tempMade {
					f.place.remove(f.temp)
				}
			}
			os.Remove(newPath)
			os.Remove(tmpPath)
		}
	}()
	if _, err := tryFlock(jf); err != nil {
		return err
	}
	if _, err := jf.Write(data); err != nil {
		return fmt.Errorf("edits: journal: %w", err)
	}
	if err := e.fsync(jf); err != nil {
		return fmt.Errorf("edits: journal: %w", err)
	}
	if err := os.Rename(newPath, tmpPath); err != nil {
		return fmt.Errorf("edits: journal: %w", err)
	}
	if err := e.syncDir(e.journalDir); err != nil {
		return err
	}
	hit("journal-written")

	// 2. Temporary files beside their targets.
	for _, f := range changed {
		if err := e.writeTemp(f.place, f.temp, f.new, f.mode, f.uid, f.gid, false, &f.tempMade); err != nil {
			return f.tempFault(err)
		}
	}
	hit("temps-written")

	// 3. Commit.
	if err := os.Rename(tmpPath, finalPath); err != nil {
		return fmt.Errorf("edits: journal commit: %w", err)
	}
	committed = true
	if err := e.syncDir(e.journalDir); err != nil {
		return fmt.Errorf("%w: %v", errPending, err)
	}
	hit("committed")

	// 4. Replace the files, then make the renames durable.
	dirs := map[string]*place{}
	for k, f := range changed {
		if err := f.place.rename(f.temp); err != nil {
			return fmt.Errorf("%w: rename %s: %v", errPending, f.real, err)
		}
		dirs[filepath.Dir(f.real)] = f.place
		hit(fmt.Sprintf("renamed-%d", k+1))
	}
	for _, p := range dirs {
		if err := e.syncPlace(p); err != nil {
			return fmt.Errorf("%w: %v", errPending, err)
		}
	}

	// 5. Done.
	if err := os.Remove(finalPath); err != nil {
		return fmt.Errorf("%w: remove journal: %v", errPending, err)
	}
	if err := e.syncDir(e.journalDir); err != nil {
		return fmt.Errorf("%w: %v", errPending, err)
	}
	hit("done")
	return nil
}

// tempFault maps a failure to create the temporary file of f.
func (f *file) tempFault(err error) error {
	if errors.Is(err, errOwner) {
		return f.denied("the file's owner cannot be kept when replacing it")
	}
	if errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EROFS) {
		return f.denied("cannot create a file in its directory: " + errnoText(err))
	}
	return fmt.Errorf("edits: temporary file for %s: %w", f.real, err)
}

var errOwner = errors.New("cannot set owner")

// writeTemp creates name in p's directory (it must not exist) with
// content, owner and mode, and fsyncs it. *made is set once the file
// exists. With ownerBestEffort a failure to set the owner is ignored
// (recovery).
func (e *Engine) writeTemp(p *place, name string, content []byte, mode fs.FileMode, uid, gid int, ownerBestEffort bool, made *bool) error {
	t, err := openAt(p, name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	*made = true
	defer t.Close()
	fi, err := t.Stat()
	if err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && (int(st.Uid) != uid || int(st.Gid) != gid) {
		// Owner before mode: chown clears set-user-ID bits.
		if err := t.Chown(uid, gid); err != nil && !ownerBestEffort {
			return fmt.Errorf("%w: %w", errOwner, err)
		}
	}
	if err := t.Chmod(mode); err != nil {
		return err
	}
	if _, err := t.Write(content); err != nil {
		return err
	}
	if err := e.fsync(t); err != nil {
		return err
	}
	return t.Close()
}

func (e *Engine) fsync(f *os.File) error {
	if e.noSync {
		return nil
	}
	return f.Sync()
}

// syncPlace makes the renames in p's directory durable.
func (e *Engine) syncPlace(p *place) error {
	if e.noSync {
		return nil
	}
	if err := p.dir.Sync(); err != nil {
		return fmt.Errorf("edits: sync %s: %w", p.dir.Name(), err)
	}
	return nil
}

func (e *Engine) syncDir(dir string) error {
	if e.noSync {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("edits: sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("edits: sync %s: %w", dir, err)
	}
	return nil
}

// recover settles every journal whose owner is gone (see the package
// comment). Journals still flocked by a live apply are skipped.
func (e *Engine) recover() error {
	entries, err := os.ReadDir(e.journalDir)
	if err != nil {
		return fmt.Errorf("edits: journal dir: %w", err)
	}
	var first error
	for _, ent := range entries { // ReadDir sorts by name, so by id
		name := ent.Name()
		var err error
		switch {
		case strings.HasSuffix(name, ".journal.new"):
			e.removeStaleNew(name)
		case strings.HasSuffix(name, ".journal.tmp"):
			err = e.recoverJournal(name, false)
		case strings.HasSuffix(name, ".journal"):
			err = e.recoverJournal(name, true)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

func (e *Engine) recoverJournal(name string, committed bool) error {
	path := filepath.Join(e.journalDir, name)
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("edits: recover %s: %w", name, err)
	}
	defer f.Close()
	if ok, err := tryFlock(f); err != nil || !ok {
		return err // a live apply owns it
	}
	// The owner may have finished between our open and our flock.
	held, err1 := f.Stat()
	named, err2 := os.Stat(path)
	if err1 != nil || err2 != nil || !os.SameFile(held, named) {
		return nil
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("edits: recover %s: %w", name, err)
	}
	j, jerr := decodeJournal(data)
	rec := Recovery{Journal: name}

	if !committed {
		// Never acted on: drop its temporary files and the journal.
		if jerr == nil {
			for _, jf := range j.Files {
				if p, temp, err := j.placeOf(jf); err == nil {
					p.remove(temp)
					p.close()
				}
			}
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("edits: recover %s: %w", name, err)
		}
		e.note(rec)
		return e.syncDir(e.journalDir)
	}
	if jerr != nil {
		rec.Corrupt = true
		e.note(rec)
		if err := os.Rename(path, path+".corrupt"); err != nil {
			return fmt.Errorf("edits: recover %s: %w", name, err)
		}
		return e.syncDir(e.journalDir)
	}

	rec.Committed = true
	paths := make([]string, len(j.Files))
	for i, jf := range j.Files {
		paths[i] = jf.Path
	}
	release, err := e.lock(context.Background(), paths)
	if err != nil {
		return err
	}
	defer release()
	for _, jf := range j.Files {
		if err := e.recoverFile(j, jf, &rec); err != nil {
			return fmt.Errorf("edits: recover %s: %w", name, err)
		}
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("edits: recover %s: %w", name, err)
	}
	e.note(rec)
	return e.syncDir(e.journalDir)
}

// staleNew is the age after which a .journal.new file (a journal whose
// apply died before flocking and naming it; no file was touched) is removed.
const staleNew = 10 * time.Minute

func (e *Engine) removeStaleNew(name string) {
	path := filepath.Join(e.journalDir, name)
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || time.Since(fi.ModTime()) < staleNew {
		return
	}
	if ok, _ := tryFlock(f); ok {
		os.Remove(path)
	}
}

// recoverFile brings one file of a committed journal to its new content
// if it still holds the old, and notes what it found in rec.
func (e *Engine) recoverFile(j *journal, jf journalFile, rec *Recovery) error {
	p, temp, err := j.placeOf(jf)
	if err != nil {
		if gone(err) {
			rec.Conflicts = append(rec.Conflicts, jf.Path)
			return nil
		}
		return err
	}
	defer p.close()
	cur, err := readForRecovery(p)
	if err != nil && !gone(err) {
		return err
	}
	switch {
	case err != nil:
		rec.Conflicts = append(rec.Conflicts, jf.Path)
		p.remove(temp)
	case sha256Hex(cur) == jf.NewSHA256:
		rec.Current = append(rec.Current, jf.Path)
		p.remove(temp)
	case sha256Hex(cur) == jf.OldSHA256:
		p.remove(temp)
		var made bool
		if err := e.writeTemp(p, temp, jf.Content, jf.Mode, jf.UID, jf.GID, true, &made); err != nil {
			if made {
				p.remove(temp)
			}
			return err
		}
		if err := p.rename(temp); err != nil {
			return err
		}
		if err := e.syncPlace(p); err != nil {
			return err
		}
		rec.Rewritten = append(rec.Rewritten, jf.Path)
	default:
		rec.Conflicts = append(rec.Conflicts, jf.Path)
		p.remove(temp)
	}
	return nil
}

// gone: what recovery finds holds no file it would edit (missing, not a
// regular file, too large, or behind a link out of the workspace); the
// file is a conflict, left alone.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) ||
		errors.Is(err, errNotEditable) || errors.Is(err, errEscapes)
}

// placeOf opens the place of a journal's file and returns it with the
// name of the file's temporary twin.
func (j *journal) placeOf(jf journalFile) (*place, string, error) {
	dir := filepath.Dir(jf.Path)
	root := j.Root
	if root == "" {
		root = dir
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.Dir(jf.Temp) != dir {
		return nil, "", fmt.Errorf("%w: the journal names %s outside its root %s", errNotEditable, jf.Path, root)
	}
	if rel == "." {
		rel = ""
	}
	p, err := openPlace(root, rel, filepath.Base(jf.Path))
	return p, filepath.Base(jf.Temp), err
}

const maxRecoveryNotes = 100

func (e *Engine) note(r Recovery) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.recovered) == maxRecoveryNotes {
		e.recovered = e.recovered[1:]
	}
	e.recovered = append(e.recovered, r)
}

// errNotEditable: the path holds no file the engine would edit.
var errNotEditable = errors.New("not a regular file under the size limit")

// readForRecovery reads a journal's file as prepare does: by the file
// opened (O_NONBLOCK: a FIFO put in its place after the crash would block
// the server's start forever), not through a link, regular, at most
// MaxFileBytes.
func readForRecovery(p *place) ([]byte, error) {
	h, err := openAt(p, p.name, regularfile.OpenFlags, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) {
		return nil, errNotEditable
	}
	if err != nil {
		return nil, err
	}
	defer h.Close()
	fi, err := h.Stat()
	if err != nil {
		return nil, err
	}
	b, err := regularfile.ReadOpened(h, fi, MaxFileBytes)
	var big *regularfile.TooLargeError
	if errors.Is(err, regularfile.ErrNotRegular) || errors.As(err, &big) {
		return nil, errNotEditable
	}
	return b, err
}
