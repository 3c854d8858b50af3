package localfs

import (
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"
)

// Local reports whether a file system of type magic (statfs(2) f_type)
// keeps its files on this machine.
func Local(magic uint32) bool {
	switch magic {
	case 0xEF53, // ext2, ext3, ext4
		0x58465342, // xfs
		0x9123683E, // btrfs
		0x2FC12FC1, // zfs
		0xF2F52010, // f2fs
		0x01021994, // tmpfs
		0x858458F6, // ramfs
		0x794C7630: // overlayfs (a container's root)
		return true
	}
	return false
}

// dirs caches, by folder, whether its files are on a local file system.
var dirs sync.Map // folder → bool

// Dir reports whether a file in folder dir is on a local file system, on a
// 64-bit system (where a pread's offset is one argument). It asks once per
// folder: a file named in it lies on its folder's file system, unless
// something is mounted on the file itself.
func Dir(dir string) bool {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		return false
	}
	dir = filepath.Clean(dir)
	if v, ok := dirs.Load(dir); ok {
		return v.(bool)
	}
	var st syscall.Statfs_t
	err := syscall.Statfs(dir, &st)
	for err == syscall.EINTR {
		err = syscall.Statfs(dir, &st)
	}
	local := err == nil && Local(uint32(st.Type))
	dirs.Store(dir, local)
	return local
}

// Read is read(2) of b on fd, made directly.
func Read(fd int, b []byte) (int, error) {
	n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return result(n, e)
}

// Pread is pread(2) of b on fd at off, made directly.
func Pread(fd int, b []byte, off int64) (int, error) {
	n, _, e := syscall.RawSyscall6(syscall.SYS_PREAD64, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), uintptr(off), 0, 0)
	return result(n, e)
}

// Write is write(2) of b on fd, made directly.
func Write(fd int, b []byte) (int, error) {
	n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return result(n, e)
}

// atFDCWD is AT_FDCWD of openat(2): a relative path is taken from the
// working directory, as open(2) takes it.
const atFDCWD = -100

// Open is open(2) of path, made directly.
func Open(path string, flags int, perm uint32) (int, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return -1, err
	}
	cwd := atFDCWD
	fd, _, e := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(cwd), uintptr(unsafe.Pointer(p)), uintptr(flags), uintptr(perm), 0, 0)
	if e != 0 {
		return -1, e
	}
	return int(fd), nil
}

// Close is close(2) of fd, made directly.
func Close(fd int) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// result is a transfer's count, or its error as the syscall package gives
// it (an Errno).
func result(n uintptr, e syscall.Errno) (int, error) {
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
