package main

import "github.com/steadyframe/steadyframe/internal/scene"

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
}

// scaleOf reads the emitters' counts; m is nil without emitters.
func scaleOf(m *scene.Emitters) scaleSection {
	if m == nil {
		return scaleSection{}
	}
	st := m.Stats()
	return scaleSection{Emitters: m.Len(), Moves: st.Moves, QueueFull: st.QueueFull, Lost: st.Lost}
}

// text is the report's emitters line.
func (s scaleSection) text() string {
	if s.Emitters == 0 {
		return "none (-emitters 0)"
	}
	return itoa(s.Emitters) + " positioned loops around a walking listener; " + utoa(s.Moves) + " moves, " +
		utoa(s.QueueFull) + " refused by a full queue, " + utoa(s.Lost) + " to an emitter no longer playing"
}

func utoa(n uint64) string { return itoa(int(n)) }
