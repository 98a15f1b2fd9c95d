package voices

import (
	"errors"
)

// Sentinel errors returned by this package. Check them with errors.Is.
//
// The refusals a game meets in steady frames are ErrNoVoice,
// ErrQueueFull, ErrStaleHandle, ErrClosed and ErrCooldown. They come
// from Play, Stop, SetVolume, SetPan, SetMasterGain, SetFormatGain and
// the bus, fade and pause calls. They are returned as the sentinel
// itself, never wrapped, so that neither refusing nor testing the
// refusal allocates. errors.Is(err, ErrNoVoice) on an ErrNoVoice
// refusal returns at its first comparison. err == ErrNoVoice, or a
// switch on err, works too. The details a wrapped error would carry
// (which call, which format, why) are in Stats.LastRefusal instead.
//
// What stays allocation-free is testing a refusal against its own
// sentinel, or comparing it with ==. errors.Is against another sentinel
// (errors.Is(err, ErrNoVoice) when err is ErrQueueFull) falls through
// to type assertions on err. The Go runtime fills its per-call-site
// assertion caches lazily. It allocates about one call in a thousand
// until it has cached err's type. So where several refusals are
// possible in a guarded frame, switch on the value:
//
//	switch _, err := eng.Play(clip, voices.PlayDesc{}); err {
//	case nil:
//	case voices.ErrNoVoice, voices.ErrQueueFull:
//		// skip the sound this frame
//	default:
//		log.Print(err) // a bug: bad arguments, a released bank's clip, ...
//	}
//
// Other errors (bad arguments, a failed Release or StopAll) are wrapped
// with what went wrong and allocate; they are not steady-frame events.
var (
	// ErrFormat is returned for a format this package cannot play: a rate
	// other than 8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200 or
	// 96000 Hz, a channel count other than 1 or 2, or an unknown encoding.
	ErrFormat = errors.New("voices: unsupported format")
	// ErrPCM is returned when PCM bytes do not fit their format: an empty
	// clip, a length that is not a whole number of frames, a range outside
	// the bank, or loop points outside the clip.
	ErrPCM = errors.New("voices: bad PCM data")
	// ErrNoVoice is returned, unwrapped, by Play under PolicyRefuse when
	// every voice the caps allow is busy, or when every slot of the clip's
	// format is playing, fading out or retired. It is counted in
	// Stats.Refusals.
	ErrNoVoice = errors.New("voices: no voice free")
	// ErrQueueFull is returned, unwrapped, when the command queue to the
	// audio goroutine is full; the command was not queued. It is counted
	// in Stats.QueueFull.
	ErrQueueFull = errors.New("voices: command queue full")
	// ErrStaleHandle is returned, unwrapped, for the zero Handle and for a
	// handle whose voice has ended.
	ErrStaleHandle = errors.New("voices: stale handle")
	// ErrClosed is returned by every Engine call after Close, and by Play
	// and Bank.Clip once the bank's Release has begun; the engine's
	// per-voice calls return it unwrapped.
	ErrClosed = errors.New("voices: closed")
	// ErrBankInUse is returned by Bank.Release when voices still read the
	// bank's memory at the timeout. The wrapping message names the bank and
	// the voices.
	ErrBankInUse = errors.New("voices: bank still in use")
	// ErrStopAll is returned by StopAll (and Close) when neither the drain
	// barrier nor its fallback could prove the voices stopped within the
	// timeout.
	ErrStopAll = errors.New("voices: StopAll did not complete")
	// ErrDeviceHung is returned by Close, and kept for Engine.Err, when the
	// device's Close has not returned within EngineDesc.CloseTimeout. The
	// wrapping message names the device. The engine is closed all the
	// same: no voice reads caller memory, and the device's reads no longer
	// reach the mixer.
	ErrDeviceHung = errors.New("voices: device Close did not return")
	// ErrInvalid is returned for an impossible setting: a NaN or negative
	// volume, a pan outside [-1, 1], a bad EngineDesc field.
	ErrInvalid = errors.New("voices: invalid argument")
	// ErrNotPitched is returned, unwrapped, by SetPitch for a voice
	// played without PlayDesc.Pitch: play with a pitch to make a voice
	// pitchable.
	ErrNotPitched = errors.New("voices: voice not played with a pitch")
)
