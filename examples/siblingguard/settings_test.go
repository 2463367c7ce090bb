package siblingguard

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

type settings struct {
	Timeout time.Duration
	Start   time.Time
	Any     any
	Count   int
}

func field(s *settings, name string) reflect.Value {
	return reflect.ValueOf(s).Elem().FieldByName(name)
}

func TestDecodeDuration(t *testing.T) {
	var s settings
	d := &decoder{file: "app.conf"}
	if err := d.decodeDuration("90s", field(&s, "Timeout")); err != nil || s.Timeout != 90*time.Second {
		t.Errorf("Timeout = %v, %v", s.Timeout, err)
	}
	if err := d.decodeDuration("1h", field(&s, "Any")); err != nil || s.Any != time.Hour {
		t.Errorf("Any = %v, %v", s.Any, err)
	}
	err := d.decodeDuration("1h", field(&s, "Count"))
	if err == nil || !strings.Contains(err.Error(), "a duration cannot be stored in a int") {
		t.Errorf("a duration in Count: %v", err)
	}
}

func TestDecodeTime(t *testing.T) {
	var s settings
	d := &decoder{file: "app.conf"}
	want := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	if err := d.decodeTime("2026-11-26T08:00:00Z", field(&s, "Start")); err != nil || !s.Start.Equal(want) {
		t.Errorf("Start = %v, %v", s.Start, err)
	}
	if err := d.decodeTime("2026-11-26T08:00:00Z", field(&s, "Any")); err != nil || s.Any != want {
		t.Errorf("Any = %v, %v", s.Any, err)
	}
}

func TestDecodeTimeMismatch(t *testing.T) {
	var s settings
	d := &decoder{file: "app.conf"}
	err := d.decodeTime("2026-11-26T08:00:00Z", field(&s, "Count"))
	if err == nil || !strings.Contains(err.Error(), "app.conf: a time cannot be stored in a int") {
		t.Errorf("a time in Count: %v", err)
	}
}
