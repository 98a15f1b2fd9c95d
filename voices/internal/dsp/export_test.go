package dsp

// What the external tests (package dsp_test) need to see.

// Phases returns how many rows t's cycle has.
func (t *SincTable) Phases() uint32 { return t.phases }

// Grouped reports whether t has the vector group kernels' layout.
func (t *SincTable) Grouped() bool { return t.grp != nil }

// Cut returns the limiter's gain reduction now, 1 - gain.
func (lim *Limiter) Cut() float32 { return lim.cut }
