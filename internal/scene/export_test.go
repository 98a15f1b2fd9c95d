package scene

// MusicDir is the music file's directory, for the tests.
func MusicDir(a *Audio) string { return a.music.dir }
