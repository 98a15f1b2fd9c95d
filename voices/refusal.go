package voices

// Refusal describes a refused call: what its error, the bare sentinel,
// leaves out so that refusing allocates nothing. Stats.LastRefusal holds
// the most recent one. It is a plain value, safe to hand to any goroutine.
type Refusal struct {
	// Err is the sentinel the call returned: ErrNoVoice, ErrQueueFull,
	// ErrStaleHandle, ErrClosed or ErrCooldown; nil while nothing has
	// been refused.
	Err error
	// Call names the refused method: "Play", "Stop", "SetVolume",
	// "SetPan", "SetMasterGain" or "SetFormatGain".
	Call string
	// Format is the clip's format for a Play (the format given to
	// SetFormatGain), and the zero Format otherwise. Its caps are in
	// Stats.Formats.
	Format Format
	// Reason says why, in words.
	Reason string
}

// String formats r as one line, "Play of a 44100Hz/1ch/s16le clip: voices:
// no voice free (every voice the caps allow is busy)", or "none". It
// allocates: call it when logging, not in a guarded frame.
func (r Refusal) String() string {
	if r.Err == nil {
		return "none"
	}
	s := r.Call
	if r.Format != (Format{}) {
		s += " of a " + r.Format.String() + " clip"
	}
	return s + ": " + r.Err.Error() + " (" + r.Reason + ")"
}

// refusalReason is why a call was refused; each maps to one sentinel.
type refusalReason uint8

const (
	reasonNone refusalReason = iota
	reasonCapped
	reasonBusy
	reasonQueueFull
	reasonStale
	reasonClosed
	reasonBankReleased
	reasonBusCap
	reasonCooldown
	reasonInstances
)

var reasons = [...]struct {
	err  error
	text string
}{
	reasonNone:         {nil, ""},
	reasonCapped:       {ErrNoVoice, "every voice the caps allow is busy"},
	reasonBusy:         {ErrNoVoice, "every voice slot of the format is playing, fading out or retired"},
	reasonQueueFull:    {ErrQueueFull, "the audio goroutine is behind; nothing was queued"},
	reasonStale:        {ErrStaleHandle, "the voice has ended, or the zero Handle"},
	reasonClosed:       {ErrClosed, "the engine is closed"},
	reasonBankReleased: {ErrClosed, "the clip's bank is released or being released"},
	reasonBusCap:       {ErrNoVoice, "every voice the bus's MaxVoices allows is busy"},
	reasonCooldown:     {ErrCooldown, "the clip's Cooldown has not passed since its last Play"},
	reasonInstances:    {ErrNoVoice, "the clip plays its MaxInstances already"},
}

// callID names a refusable Engine method.
type callID uint8

const (
	callPlay callID = iota + 1
	callStop
	callSetVolume
	callSetPan
	callSetMasterGain
	callSetFormatGain
	callBus
	callFade
	callPause
	callResume
	callSetPitch
	callSetListener // 3D sound: spatial.go
	callSetPosition
	callSetDirection
)

var callNames = [...]string{
	callPlay: "Play", callStop: "Stop", callSetVolume: "SetVolume", callSetPan: "SetPan",
	callSetMasterGain: "SetMasterGain", callSetFormatGain: "SetFormatGain",
	callBus: "a bus call", callFade: "Fade", callPause: "Pause", callResume: "Resume",
	callSetPitch: "SetPitch",
	// 3D sound: spatial.go.
	callSetListener: "SetListener", callSetPosition: "SetPosition", callSetDirection: "SetDirection",
}

// refuse records a refusal of call for reason (fi is the format index, or
// -1) as the engine's last, and returns its sentinel. One atomic store:
// the record is a packed word, so that concurrent refusals from any
// goroutine neither lock nor tear it.
func (e *Engine) refuse(call callID, r refusalReason, fi int) error {
	e.lastRefusal.Store(uint32(r) | uint32(call)<<8 | uint32(fi+1)<<16)
	return reasons[r].err
}

// lastRefusalOf unpacks a word refuse stored.
func (e *Engine) lastRefusalOf(w uint32) Refusal {
	r := refusalReason(w)
	if r == reasonNone || int(r) >= len(reasons) {
		return Refusal{}
	}
	out := Refusal{Err: reasons[r].err, Reason: reasons[r].text}
	if c := callID(w >> 8); int(c) < len(callNames) {
		out.Call = callNames[c]
	}
	if fi := int(w>>16) - 1; fi >= 0 && fi < len(e.slots.pools) {
		out.Format = e.slots.pools[fi].format
	}
	return out
}
