// Package doccheck holds the module's doc-length test. It has no code of
// its own; doccheck_test.go reads every package's comments.
//
// # Ownership
//
// Nothing here is imported. The test parses the module's source files.
//
// # Lifetime
//
// Not applicable: the package holds no state.
package doccheck
