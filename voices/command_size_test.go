package voices

import (
	"testing"
	"unsafe"
)

// TestCommandCellIsOneLine pins the command's size: the engine's queue
// cell is the command and syncs.Queue's 8-byte sequence number, and at
// 56 bytes the cell is one 64-byte cache line, so a Play writes one line
// of the ring, not two. The 64-byte command (a 72-byte cell, straddling
// lines) made Play 13% slower (BenchmarkPlay, docs/play-speed.md).
func TestCommandCellIsOneLine(t *testing.T) {
	if n := unsafe.Sizeof(command{}); n > 56 {
		t.Errorf("command is %d bytes: its queue cell (%d bytes) is over a 64-byte cache line", n, n+8)
	}
}
