package rules

import (
	"io/fs"
	"os"
)

// osFiles is Files on the file system, for the package's own tests (the
// runs' is internal/run's).
type osFiles struct{}

func (osFiles) ReadFile(name string) ([]byte, error)  { return os.ReadFile(name) }
func (osFiles) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
