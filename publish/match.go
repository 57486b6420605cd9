package publish

import "strings"

// MatchTopic reports whether an MQTT topic name matches a subscription
// filter with + and # wildcards (MQTT 3.1.1 §4.7; topics starting with $
// are not matched by a leading wildcard).
func MatchTopic(filter, topic string) bool {
	if strings.HasPrefix(topic, "$") && (strings.HasPrefix(filter, "+") || strings.HasPrefix(filter, "#")) {
		return false
	}
	for {
		fl, frest, fmore := strings.Cut(filter, "/")
		if fl == "#" {
			return true
		}
		tl, trest, tmore := strings.Cut(topic, "/")
		if fl != "+" && fl != tl {
			return false
		}
		if !fmore || !tmore {
			// "a/#" also matches "a".
			return fmore == tmore || (fmore && frest == "#")
		}
		filter, topic = frest, trest
	}
}
