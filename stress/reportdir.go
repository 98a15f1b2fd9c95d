package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errReportDir is the harness error for a -report directory that cannot
// be written: found before the run starts (exitReportDir).
var errReportDir = errors.New("stress: -report directory not writable")

// errReportWrite marks a report that could not be written after the run
// (exitReport).
var errReportWrite = errors.New("stress: report not written")

// probeReportDir makes dir and proves it writable by creating, writing
// and removing a file in it, before anything runs: a read-only or
// unusable directory fails at once rather than after a long run.
func probeReportDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %w", errReportDir, err)
	}
	f, err := os.CreateTemp(dir, ".stress-probe-*")
	if err != nil {
		return fmt.Errorf("%w: %w", errReportDir, err)
	}
	_, werr := f.Write([]byte{'\n'})
	cerr := f.Close()
	rerr := os.Remove(f.Name())
	if err := errors.Join(werr, cerr, rerr); err != nil {
		return fmt.Errorf("%w: %s: %w", errReportDir, dir, err)
	}
	return nil
}

// writeAtomic writes name in dir through a temporary file in the same
// directory, synced and renamed over name: a reader sees the old file or
// the whole new one, and a failed write (a full disk) leaves no partial
// file behind. write fills the temporary file.
func writeAtomic(dir, name string, write func(f *os.File) error) error {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("%w: %s: %w", errReportWrite, name, err)
	}
	err = f.Chmod(0o644) // CreateTemp makes it 0600; a report is for everyone to read
	if err == nil {
		err = write(f)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("%w: %s: %w", errReportWrite, name, err)
	}
	return nil
}
