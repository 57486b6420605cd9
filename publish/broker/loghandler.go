package broker

import (
	"context"
	"log/slog"
)

// brokerLog is the log handler the MQTT server logs through: its lines
// without a message get one, and a packet dump (pk) is left out, since it
// may hold a client's payload and a line of it runs to kilobytes.
type brokerLog struct{ inner slog.Handler }

func (h brokerLog) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h brokerLog) Handle(ctx context.Context, r slog.Record) error {
	msg := r.Message
	if msg == "" {
		msg = "mqtt broker"
	}
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "pk" {
			out.AddAttrs(a)
		}
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h brokerLog) WithAttrs(as []slog.Attr) slog.Handler {
	keep := make([]slog.Attr, 0, len(as))
	for _, a := range as {
		if a.Key != "pk" {
			keep = append(keep, a)
		}
	}
	return brokerLog{h.inner.WithAttrs(keep)}
}

func (h brokerLog) WithGroup(name string) slog.Handler { return brokerLog{h.inner.WithGroup(name)} }
