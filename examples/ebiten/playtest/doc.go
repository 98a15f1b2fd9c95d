// Package playtest runs the Ebitengine example as a user would. It builds
// the example, runs it under a display with ALSA pointed at a FIFO, and
// checks the tone that arrived.
//
// It is a package of its own because Ebitengine's package initialisation
// needs a display. A test linked with the example could not even skip
// without one. It holds no code besides its tests.
package playtest
