package otodev

import (
	"time"

	"github.com/steadyframe/steadyframe/voices"
)

// MaxLatency is the longest a Play takes to reach the sound card through
// a Device of bufferFrames (Desc.BufferFrames) on an engine of
// blockFrames (EngineDesc.BlockFrames), in format f: three buffers and a
// block. oto reads the mixer one player buffer at a time. So a Play waits
// up to one buffer for the next read (Stats.PlayToMixMax), plus up to a
// block when the read starts inside one. Up to one buffer more is queued
// ahead of it in oto's player. Then comes ALSA's buffer, which oto is
// asked for in the same size. Device.Stats' Latency is the last two, at
// each read.
func MaxLatency(f voices.Format, bufferFrames, blockFrames int) time.Duration {
	return f.Duration(3*bufferFrames + blockFrames)
}
