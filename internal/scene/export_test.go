package scene

import "os"

// MusicFile is the music's open file (nil once closed) and its directory
// ("" once removed), for the tests.
func MusicFile(a *Audio) (*os.File, string) { return a.music.file, a.music.dir }
