// Package verify checks Arrow IPC metadata and bodies in place before
// arrow-go decodes them: the flatbuffer of a message or file footer
// ([Message], [Footer]) and the buffers of a record or dictionary batch
// against its field nodes ([Body]).
//
// The checks read the flatbuffers in time linear in their size, never
// follow a table twice where arrow-go would expand it once per path, and
// read a few bytes of a body per array (see package arrowipc, Errors,
// for what is refused). Errors are *[Error] values wrapping
// arrow.ErrInvalid whose text names no package: arrowipc wraps them.
package verify
