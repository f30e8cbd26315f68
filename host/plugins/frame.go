package plugins

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
)

// Frames between the kernel and a worker, over the worker's stdin and
// stdout: a u32 little-endian payload length, a kind byte, the payload.
// Sources travel as raw bytes inside the ABI request message; JSON is only
// used for the small init and error payloads.
const (
	frameInit   byte = 'I' // kernel -> worker: JSON workerInit
	frameReady  byte = 'R' // worker -> kernel: empty, or an error message
	frameCall   byte = 'C' // kernel -> worker: u32 guest index, u32 budget ms, request message
	frameResult byte = 'A' // worker -> kernel: status byte, then response message or JSON fault
	frameLoad   byte = 'L' // kernel -> worker: u32 guest index; loaded, the worker answers a result frame (no message)
)

// Result statuses.
const (
	resultOK      byte = 0 // the guest's response message follows
	resultFault   byte = 1 // a kernel error (JSON fault) follows; the instance is fine
	resultTrapped byte = 2 // a kernel error follows; the guest trapped and its instance was discarded
)

// maxFrame bounds one frame: a guest's memory is at most 4 GiB, and
// requests are capped by the tiers far below this.
const maxFrame = 1 << 30

func writeFrame(w *bufio.Writer, kind byte, parts ...[]byte) error {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	if n > maxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", n, maxFrame)
	}
	var hdr [5]byte
	binary.LittleEndian.PutUint32(hdr[:], uint32(n))
	hdr[4] = kind
	w.Write(hdr[:])
	for _, p := range parts {
		w.Write(p)
	}
	return w.Flush()
}

func readFrame(r *bufio.Reader) (kind byte, payload []byte, err error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n > maxFrame {
		return 0, nil, fmt.Errorf("frame of %d bytes exceeds %d", n, maxFrame)
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return 0, nil, fmt.Errorf("frame cut short: %w", err)
	}
	return hdr[4], payload, nil
}
