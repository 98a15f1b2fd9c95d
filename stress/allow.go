package main

import (
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/lifetime/guard"
	"github.com/steadyframe/steadyframe/voices/otodev"
)

// guardAllow is the allowlist for the device the run uses: oto's own
// allocations (otodev.GuardAllow says why), which cover oto's code only,
// so our mixer, which oto calls, stays guarded. The offline device needs
// none: its pull loop sleeps rather than selecting, so it allocates
// nothing even after a GC.
func guardAllow(snd *scene.Audio) []guard.Allow {
	if snd.Offline {
		return nil
	}
	return []guard.Allow{otodev.GuardAllow()}
}
