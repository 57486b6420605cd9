// Package publish makes a board's game visible to the world: the
// crash-safe journal that is the source of truth, the MQTT outbox that
// projects it onto the topic tree, the embedded broker, commands, the live
// PGN feed for broadcasts, and the demonstration web pages.
package publish
