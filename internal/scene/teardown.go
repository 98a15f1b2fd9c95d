package scene

import (
	"log/slog"

	"github.com/steadyframe/steadyframe/lifetime/teardown"
)

// Teardown stage names, in the order Plan runs them.
const (
	StageStopAll     = "voices-stopall"
	StageSoundMemory = "sound-memory"
	StageAudioDevice = "audio-device"
	StageTextures    = "textures-free"
	StageDrain       = "frames-drain"
	StageDescriptors = "descriptors-close"
	StageUpload      = "upload-unmap"
	StageFrames      = "frames-close"
	StageGL          = "gl-context"
)

// Plan is the scene's shutdown order as a teardown.Plan, built and
// validated but not run. It encodes the reference engine's two lessons.
// First, voices stop before the sound memory they read is released, and
// the device closes after both. Second, the frames drain before the GL
// objects they may still read are deleted. So textures are freed and the
// clock is drained, which reclaims the slots and deletes the textures.
// Then the heap closes, the upload buffer is unmapped and the clock
// closes. The GL context goes last. The Uses edges make the plan refuse any
// reordering that would release something still in use.
//
// textures is the Textures to free; nil when the first frame never loaded
// them. Run the plan on the render goroutine, after every other goroutine
// that reaches these owners has stopped.
func Plan(logger *slog.Logger, a *Audio, r *Render, textures *Textures) (*teardown.Plan, error) {
	td := teardown.New(logger)
	type step struct {
		name  string
		fn    func() error
		after []string
	}
	steps := []step{
		{StageStopAll, a.StopAll, nil},
		{StageSoundMemory, a.ReleaseBanks, []string{StageStopAll}},
		{StageAudioDevice, a.Close, []string{StageSoundMemory}},
		{StageTextures, func() error {
			if textures == nil {
				return nil
			}
			return textures.Release()
		}, nil},
		{StageDrain, r.Clock.Drain, []string{StageTextures}},
		{StageDescriptors, r.CloseHeap, []string{StageDrain}},
		{StageUpload, r.Set.Close, []string{StageDrain}},
		{StageFrames, r.Clock.Close, []string{StageDescriptors, StageUpload}},
	}
	if r.Window != nil {
		steps = append(steps, step{StageGL, r.Window.Close, []string{StageFrames}})
	}
	for _, s := range steps {
		if err := td.Add(s.name, s.fn, s.after...); err != nil {
			return nil, err
		}
	}
	for _, u := range [][2]string{
		{StageStopAll, StageSoundMemory},
		{StageDrain, StageDescriptors},
		{StageDrain, StageUpload},
		{StageDescriptors, StageFrames},
		{StageUpload, StageFrames},
	} {
		if err := td.Uses(u[0], u[1]); err != nil {
			return nil, err
		}
	}
	if _, err := td.Validate(); err != nil {
		return nil, err
	}
	return td, nil
}
