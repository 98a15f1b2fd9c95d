package voices

import "errors"

// Sentinel errors returned by this package. Check them with errors.Is; the
// returned values wrap them with the handle, bank, format or count involved.
var (
	// ErrFormat is returned for a format this package cannot play: a rate
	// other than 22050, 44100 or 48000 Hz, a channel count other than 1 or
	// 2, or an unknown encoding.
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
	// voice has ended.
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
