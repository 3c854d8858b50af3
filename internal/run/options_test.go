package run

import (
	"reflect"
	"testing"
	"time"
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
