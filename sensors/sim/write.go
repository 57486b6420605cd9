package sim

import (
	"errors"
	"fmt"
	"io"

	"github.com/boardd/boardd/trace"
)

// WriteTrace writes the rest of src as a boardtrace to w: the header, the
// given comment lines, then every event with its injection comments (and
// notes, with Options.Annotate) on the lines before it.
func WriteTrace(w io.Writer, src *Source, comments ...string) error {
	tw := trace.NewWriter(w)
	if err := tw.WriteHeader(src.Header()); err != nil {
		return fmt.Errorf("writing trace header: %w", err)
	}
	for _, c := range comments {
		if err := tw.Comment(c); err != nil {
			return fmt.Errorf("writing trace: %w", err)
		}
	}
	for {
		it, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if it.Note != "" {
			if err := tw.Comment(it.Note); err != nil {
				return fmt.Errorf("writing trace: %w", err)
			}
		}
		for _, in := range it.Injections {
			if err := tw.Comment(in.String()); err != nil {
				return fmt.Errorf("writing trace: %w", err)
			}
		}
		if err := tw.WriteEvent(&it.Event); err != nil {
			return fmt.Errorf("writing trace: %w", err)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing trace: %w", err)
	}
	return nil
}
