// Package atomicfile writes a file so that readers of its path see either
// the old file or the whole new one, never a partial write.
//
// # Overview
//
// Create opens a temporary file ".NAME.tmp-PID-RANDOM" in the target's
// directory, PID being the writer's process number;
// File.Commit syncs it, renames it over the target and syncs the
// directory; File.Abort removes it. Until Commit succeeds whatever stood
// at the target is untouched, byte for byte, and a failed or aborted write
// leaves nothing behind. A target that is a symbolic link keeps the link:
// the file it points to is the one replaced. A replaced file keeps its
// permission bits; a new one gets 0666 less the umask, as os.Create gives.
//
// Temporary files that are neither committed nor aborted are pending.
// HandleSignals installs a handler that, on SIGINT or SIGTERM, removes
// every pending file and exits with 128 plus the signal number (130, 143),
// the code a shell reports for a program killed by the signal. Commit and
// the handler exclude each other, so an interrupted program leaves either
// the old target or the complete new one. A process killed outright
// (SIGKILL, a crash, a power loss) leaves its temporary file behind: the
// next Create of the same target removes it once no process of its PID
// runs (RemoveStale).
//
// # Errors
//
// Create refuses a target that exists but is not a regular file (a
// directory, a device, a named pipe or socket) with an error wrapping
// ErrNotRegular, before creating anything. Other errors are
// *fs.PathError values that name the target (a missing directory as
// such), never the temporary file, with the cause of package os
// (syscall.Errno, fs.ErrNotExist...) wrapped.
package atomicfile
