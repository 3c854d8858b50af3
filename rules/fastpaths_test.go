package rules

import (
	"strings"
	"testing"
)

// TestWindowsDeviceNames: the rune-count gate changes no answer.
func TestWindowsDeviceNames(t *testing.T) {
	ref := func(name string) bool {
		base, _, _ := strings.Cut(name, ".")
		base = strings.ToUpper(strings.TrimRight(base, " "))
		switch base {
		case "CON", "PRN", "AUX", "NUL":
			return true
		}
		return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9'
	}
	for _, s := range []string{"con", "CON.md", "nul ", "aux.x.y", "com1", "LPT9.txt", "com0", "coM1 ", "comı", "lpt¹", "ſon", "RS-20260122-x", "", "co", "prn  .md", "conx"} {
		if got, want := windowsDevice(s), ref(s); got != want {
			t.Errorf("windowsDevice(%q) = %t, want %t", s, got, want)
		}
	}
}
