package run

import (
	"reflect"
	"testing"
	"time"

	"github.com/brenner-ci/brenner-ci/compile/mailbox"
)

// TestOptionsKeyCoversEveryField: every field of an options value takes
// part in its key, so an option added later can never be left out of a
// cache key.
func TestOptionsKeyCoversEveryField(t *testing.T) {
	base := optionsKey("k", CheckOptions{})
	v := reflect.ValueOf(&CheckOptions{}).Elem()
	for i := 0; i < v.NumField(); i++ {
		o := CheckOptions{}
		f := reflect.ValueOf(&o).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(time.Second))
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"x"}))
		default:
			t.Fatalf("field %s of kind %s: extend this test", v.Type().Field(i).Name, f.Kind())
		}
		if optionsKey("k", o) == base {
			t.Errorf("field %s does not change the key", v.Type().Field(i).Name)
		}
	}
	if optionsKey("a", CheckOptions{}) == optionsKey("b", CheckOptions{}) {
		t.Error("the label does not change the key")
	}
}

// TestScanSaltCoversEveryField: every scan option changes the scan cache's
// salt except the three that never change how a file scans; a new option
// (another limit) is keyed unless it is added to that list here on purpose.
func TestScanSaltCoversEveryField(t *testing.T) {
	c := &checker{env: &Env{Version: "test"}}
	// Known names a file's bytes for thread keys; its scan is the same.
	unkeyed := map[string]bool{"Jobs": true, "Exclude": true, "Cache": true, "Known": true}
	base := c.scanSalt(mailbox.ScanOptions{})
	typ := reflect.TypeOf(mailbox.ScanOptions{})
	for i := 0; i < typ.NumField(); i++ {
		var o mailbox.ScanOptions
		f := reflect.ValueOf(&o).Elem().Field(i)
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(7)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"x"}))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Map:
			f.Set(reflect.ValueOf(map[string]string{"/x": "y"}))
		default:
			t.Fatalf("field %s of kind %s: extend this test", typ.Field(i).Name, f.Kind())
		}
		if changed := c.scanSalt(o) != base; changed == unkeyed[typ.Field(i).Name] {
			t.Errorf("field %s: changes the salt %t, want %t", typ.Field(i).Name, changed, !unkeyed[typ.Field(i).Name])
		}
	}
}
