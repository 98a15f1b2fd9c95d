// Package inlinecheck instantiates the hot paths the way a caller does;
// TestHotPathsInline builds it with -gcflags=-m and checks that each call
// below is inlined.
package inlinecheck

import "github.com/steadyframe/steadyframe/pools"

type elem struct{ a [8]uint64 }

func Churn(p *pools.Pool[elem], a *pools.Arena[elem], s *pools.Slots[elem]) int {
	h, e, err := p.Create()
	if err != nil {
		return 0
	}
	e.a[0] = 1
	n := 0
	if p.Valid(h) && p.Get(h) != nil {
		n++
	}
	if p.Destroy(h) == nil {
		n++
	}
	if h, _, err := p.Create(); err == nil && p.DestroyAfter(h, 3) == nil {
		n++
	}
	for _, e, ok := p.Reclaim(7); ok; _, e, ok = p.Reclaim(7) {
		n += int(e.a[0])
	}
	if _, x, err := a.Alloc(); err == nil {
		x.a[0] = 2
	}
	for i := s.NextLive(0); i >= 0; i = s.NextLive(i + 1) {
		if s.ReleaseAt(i) == nil {
			n++
		}
	}
	return n
}
