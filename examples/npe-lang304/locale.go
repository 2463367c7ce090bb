// Package locale knows the available locales.
package locale

// Locale is a language and a country.
type Locale struct{ Lang, Country string }

// Tag is "lang_COUNTRY".
func (l *Locale) Tag() string {
	if l.Country == "" {
		return l.Lang
	}
	return l.Lang + "_" + l.Country
}

var available = map[string]bool{"en": true, "en_GB": true, "fr_FR": true}

// IsAvailable reports whether l is an available locale; nil is not.
func IsAvailable(l *Locale) bool {
	tag := l.Tag()
	return available[tag]
}
