// Package teardown runs a program's shutdown as a declared order of named
// stages. Each stage is logged with its duration, and errors are joined.
// Stages whose prerequisite failed are skipped, and say so.
//
// A graph that could release something too early is rejected before
// anything runs. That covers cycles, unknown or duplicate stages, and a
// resource released before a stage that still uses it (Uses).
//
// # Ownership
//
// A Plan belongs to the goroutine that shuts the program down. It is not
// safe for concurrent use. Result values and their slices are copies owned
// by the caller.
//
// # Lifetime
//
// A Plan runs once. Add and Uses build it, Validate checks it at startup,
// and Run executes it at exit. After that every call returns ErrTwice.
package teardown
