package voices

import (
	"errors"
	"fmt"
)

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the call, bank, format or count involved.
// The refusals a game meets in steady frames (ErrNoVoice, ErrQueueFull,
// ErrStaleHandle, ErrClosed from the per-voice calls) are built before
// they are needed, so refusing allocates nothing: they name the call and
// the format, but not the handle, which the caller holds anyway.
var (
	// ErrFormat is returned for a format this package cannot play: a rate
	// other than 8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200 or
	// 96000 Hz, a channel count other than 1 or 2, or an unknown encoding.
	ErrFormat = errors.New("voices: unsupported format")
	// ErrPCM is returned when PCM bytes do not fit their format: an empty
	// clip, a length that is not a whole number of frames, a range outside
	// the bank, or loop points outside the clip.
	ErrPCM = errors.New("voices: bad PCM data")
	// ErrNoVoice is returned by Play under PolicyRefuse when every voice
	// the caps allow is busy. It is counted in Stats.Refusals.
	ErrNoVoice = errors.New("voices: no voice free")
	// ErrQueueFull is returned when the command queue to the audio
	// goroutine is full; the command was not queued. It is counted in
	// Stats.QueueFull.
	ErrQueueFull = errors.New("voices: command queue full")
	// ErrStaleHandle is returned for the zero Handle and for a handle whose
	// voice has ended. The wrapping message names the call.
	ErrStaleHandle = errors.New("voices: stale handle")
	// ErrClosed is returned by every Engine and Bank call after Close or
	// Release.
	ErrClosed = errors.New("voices: closed")
	// ErrBankInUse is returned by Bank.Release when voices still read the
	// bank's memory at the timeout. The wrapping message names the bank and
	// the voices.
	ErrBankInUse = errors.New("voices: bank still in use")
	// ErrStopAll is returned by StopAll when neither the drain barrier nor
	// its fallback could prove the voices stopped within the timeout.
	ErrStopAll = errors.New("voices: StopAll did not complete")
	// ErrInvalid is returned for an impossible setting: a NaN or negative
	// volume, a pan outside [-1, 1], a bad EngineDesc field.
	ErrInvalid = errors.New("voices: invalid argument")
)

// callErrors are one Engine call's refusals, wrapped with the call's name
// once, at package initialisation, so that returning one allocates
// nothing.
type callErrors struct {
	closed, stale, queueFull error
}

func newCallErrors(call string) *callErrors {
	return &callErrors{
		closed:    fmt.Errorf("%w: %s", ErrClosed, call),
		stale:     fmt.Errorf("%w: %s (the voice has ended, or the zero Handle)", ErrStaleHandle, call),
		queueFull: fmt.Errorf("%w: %s (the audio goroutine is behind; nothing was queued)", ErrQueueFull, call),
	}
}

var (
	errsPlay          = newCallErrors("Play")
	errsStop          = newCallErrors("Stop")
	errsSetVolume     = newCallErrors("SetVolume")
	errsSetPan        = newCallErrors("SetPan")
	errsSetMasterGain = newCallErrors("SetMasterGain")
	errsSetFormatGain = newCallErrors("SetFormatGain")
)

// formatErrors are one engine's ErrNoVoice refusals for each source
// format, with the caps in force, built by NewEngine so that refusing
// allocates nothing.
type formatErrors struct {
	capped [NumFormats]error // every place the caps allow is taken
	busy   [NumFormats]error // every slot is playing or still fading out
}

func newFormatErrors(caps [NumFormats]int, maxVoices int) *formatErrors {
	fe := &formatErrors{}
	for i := range caps {
		f := formatAt(i)
		fe.capped[i] = fmt.Errorf("%w: Play of a %v clip: every voice the caps allow is busy (%v cap %d, MaxVoices %d)",
			ErrNoVoice, f, f, caps[i], maxVoices)
		fe.busy[i] = fmt.Errorf("%w: Play of a %v clip: every %v voice is playing or fading out", ErrNoVoice, f, f)
	}
	return fe
}
