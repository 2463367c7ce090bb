// Package siblingguard stores setting values in typed fields; one of its
// decoders lacks the type check its siblings have.
package siblingguard

import (
	"fmt"
	"reflect"
	"time"
)

var (
	durationType = reflect.TypeOf(time.Duration(0))
	timeType     = reflect.TypeOf(time.Time{})
)

// decoder stores the values of one settings file.
type decoder struct {
	file string
}

func (d *decoder) mismatch(what string, t reflect.Type) error {
	return fmt.Errorf("%s: a %s cannot be stored in a %s", d.file, what, t)
}

// decodeDuration stores s, a duration, in v.
func (d *decoder) decodeDuration(s string, v reflect.Value) error {
	dur, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v.Kind() != reflect.Interface && v.Type() != durationType {
		return d.mismatch("duration", v.Type())
	}
	v.Set(reflect.ValueOf(dur))
	return nil
}

// decodeTime stores s, an RFC 3339 time, in v.
func (d *decoder) decodeTime(s string, v reflect.Value) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	v.Set(reflect.ValueOf(t))
	return nil
}
