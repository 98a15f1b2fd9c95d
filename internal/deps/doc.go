// Package deps holds the module's one dependency test: the rules of what
// each package may import, checked with go list in deps_test.go. It has
// no code of its own.
//
// # Ownership
//
// Nothing here is imported; the test runs go list on the module.
//
// # Lifetime
//
// Not applicable: the package holds no state.
package deps
