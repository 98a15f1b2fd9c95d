//go:build !amd64 || race

package syncs

import "sync/atomic"

// storeRelease stores v at p: sync/atomic's sequentially consistent Store
// (release_amd64.go says why amd64 needs less).
func storeRelease(p *atomic.Uint64, v uint64) { p.Store(v) }
