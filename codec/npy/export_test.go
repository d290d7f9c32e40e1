package npy

// NextChunk exposes nextChunk, the growth of the read buffer when the input
// size is unknown, to the tests.
var NextChunk = nextChunk
