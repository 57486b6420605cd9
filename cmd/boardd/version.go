package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/boardd/boardd/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func cmdVersion(_ context.Context, env *cli.Env, _ []string) error {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v = "dev-" + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(env.Stdout, "boardd %s\n", v)
	return nil
}
