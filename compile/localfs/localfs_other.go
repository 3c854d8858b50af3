//go:build !linux

package localfs

import "syscall"

// Dir reports whether a file in folder dir is on a local file system: only
// asked on Linux; elsewhere every call is made the ordinary way.
func Dir(dir string) bool { return false }

// Read, Pread, Write, Open and Close are made directly on Linux only; Dir
// is never true here, so they are not called.
func Read(fd int, b []byte) (int, error)                    { return 0, syscall.ENOSYS }
func Pread(fd int, b []byte, off int64) (int, error)        { return 0, syscall.ENOSYS }
func Write(fd int, b []byte) (int, error)                   { return 0, syscall.ENOSYS }
func Open(path string, flags int, perm uint32) (int, error) { return -1, syscall.ENOSYS }
func Close(fd int) error                                    { return syscall.ENOSYS }
