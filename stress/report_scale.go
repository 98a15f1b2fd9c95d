package main

import (
	"github.com/steadyframe/steadyframe/internal/scene"
	"github.com/steadyframe/steadyframe/voices"
)

// scaleSection is the game's scale (-emitters): the positioned loops
// moving around the listener and the commands that moved them.
type scaleSection struct {
	Emitters int `json:"emitters"`
	// Moves counts the SetPosition and SetListener commands the engine
	// took; QueueFull those its full queue refused (that frame's move
	// skipped); Lost the moves of an emitter no longer playing.
	Moves     uint64 `json:"moves"`
	QueueFull uint64 `json:"moves_queue_full"`
	Lost      uint64 `json:"moves_lost"`
	Held      uint64 `json:"frames_held"` // frames that sent no moves: no mixer block since the last
	// Real and Virtual split the sounds playing at the end (the last
	// block's ranking): mixed, and tracked without mixing. RealMax is
	// the real voices' cap; Swaps counts moves between the two.
	Real    int    `json:"real"`
	Virtual int    `json:"virtual"`
	RealMax int    `json:"real_max"`
	Swaps   uint64 `json:"swaps"`
	// The streamed music: its ring's bytes, and the times (and device
	// frames) its decoder fell behind.
	StreamMemory         int    `json:"stream_memory_bytes"`
	StreamUnderruns      uint64 `json:"stream_underruns"`
	StreamUnderrunFrames uint64 `json:"stream_underrun_frames"`
}

// scaleOf reads the emitters' counts (m is nil without emitters), the
// music stream's and the engine's.
func scaleOf(m *scene.Emitters, snd *scene.Audio, vs *voices.Stats) scaleSection {
	s := scaleSection{StreamMemory: snd.MusicStream().Memory(), StreamUnderruns: vs.StreamUnderruns,
		StreamUnderrunFrames: vs.StreamUnderrunFrames, Real: vs.Real, Virtual: vs.Virtual, RealMax: vs.RealMax, Swaps: vs.Swaps}
	if m != nil {
		st := m.Stats()
		s.Emitters, s.Moves, s.QueueFull, s.Lost, s.Held = m.Len(), st.Moves, st.QueueFull, st.Lost, st.Held
	}
	return s
}

// text is the report's emitters line, and the music stream's.
func (s scaleSection) text() string {
	t := "none (-emitters 0)"
	if s.Emitters > 0 {
		t = itoa(s.Emitters) + " positioned loops around a walking listener; " + utoa(s.Moves) + " moves, " +
			utoa(s.QueueFull) + " refused by a full queue, " + utoa(s.Lost) + " to an emitter no longer playing; " +
			utoa(s.Held) + " frames held back (no mixer block since the last moves)"
	}
	t += "\n             virtual voices: " + itoa(s.Real) + " real (cap " + itoa(s.RealMax) + ") and " +
		itoa(s.Virtual) + " virtual at the end; " + utoa(s.Swaps) + " swaps"
	return t + "\n  stream     music streamed from a WAV file through a " + itoa(s.StreamMemory) + "-byte ring; " +
		utoa(s.StreamUnderruns) + " underruns (" + utoa(s.StreamUnderrunFrames) + " frames of silence)"
}

func utoa(n uint64) string { return itoa(int(n)) }
